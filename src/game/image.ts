// A board's state as data, and back into a fresh board: what a restart restores instead of replaying
// every input of the round (daemon/images.ts). The image is the object graph itself, field by field,
// so a field added to the tracker or the record is in it without a word here. Plain data (objects,
// arrays, maps, sets, typed arrays) is the image as it is; what is not is marked (Mark): an instance
// of a class, and each container on the way to one. What a fresh board built by the same settings
// holds too — the same object, or a function it was given — is not copied: the restoring board's own
// is taken. An instance's closures (made by its constructor, of its wiring and itself) are the fresh
// instance's, restored into; state kept in closures is never read, so a plain object of closures has
// no image (it may keep some). Pure: the daemon serializes the image with v8's structured clone, which keeps shared
// objects shared and typed arrays typed.

/** A class whose instances the image may hold where the fresh board has none: data only, no functions. */
export type DataClass = { readonly prototype: object; readonly name: string };

/** Marks the objects of an image that are not plain data: no data of a board has this key. */
const MARK = '\u0000';

/**
 * What a restore makes of it: the restoring board's own object (`w`); a plain object, array, map or
 * set holding marks (`o`, `a`, `m`, `s`); an instance of class `c`, restored into the fresh board's
 * own instance (`b`: its functions kept) or made anew (a data class).
 */
type Mark =
  | { [MARK]: 'w' }
  | { [MARK]: 'o'; v: Record<string, unknown> }
  | { [MARK]: 'a'; v: unknown[] }
  | { [MARK]: 'm'; v: [unknown, unknown][] }
  | { [MARK]: 's'; v: unknown[] }
  | { [MARK]: 'c'; c: string; b?: true; v: Record<string, unknown> };

/** An image: plain data, structured-clone safe. */
export type Image = unknown;

/** Why a graph has no image, or an image does not fit a board: the field's path, and what was found. */
export interface ImageProblem {
  at: string;
  why: string;
}

export type ImageResult<T> = { ok: true; value: T } | { ok: false; problem: ImageProblem };

class Unfit extends Error {
  constructor(
    readonly at: string,
    readonly why: string,
  ) {
    super(`${at}: ${why}`);
  }
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;
const isPlain = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};
const isMark = (v: unknown): v is Mark => isObject(v) && Object.hasOwn(v, MARK);
const className = (v: object): string => (v.constructor as { name?: string } | undefined)?.name ?? '?';
const TYPED = [Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array, Float64Array];

/**
 * The image of `live`, read beside `fresh`: a graph of the same kind as it stood when built (each
 * field's counterpart is the fresh graph's at the same path). An instance of a class with no
 * counterpart of that class must be of one of `classes`; a function must be the counterpart's.
 */
export function imageOf(live: object, fresh: object, classes: readonly DataClass[]): ImageResult<Image> {
  const seen = new Map<object, unknown>();
  const open = new Set<object>();
  const image = (v: unknown, f: unknown, at: string): unknown => {
    // A function the fresh board holds too is wiring (a factory of the settings): its own is taken.
    if (typeof v === 'function' && v === f) return { [MARK]: 'w' };
    if (!isObject(v)) {
      if (typeof v === 'function' || typeof v === 'symbol') throw new Unfit(at, `a ${typeof v}`);
      return v;
    }
    if (seen.has(v)) return seen.get(v);
    if (open.has(v)) throw new Unfit(at, 'a cycle of plain objects');
    if (v === f) return keep(v, { [MARK]: 'w' });
    if (ArrayBuffer.isView(v)) {
      if (!TYPED.some((k) => v instanceof k)) throw new Unfit(at, `a ${className(v)}`);
      return keep(v, v);
    }
    if (Array.isArray(v)) {
      const fa = Array.isArray(f) ? f : [];
      return keep(
        v,
        within(v, () =>
          copied(
            v,
            v.map((x, i) => image(x, fa[i], `${at}[${i}]`)),
          ),
        ),
      );
    }
    if (v instanceof Map) {
      const fm = f instanceof Map ? f : undefined;
      return keep(
        v,
        within(v, () => {
          const entries = [...v].map(
            ([key, x]) =>
              [image(key, undefined, `${at}.key`), image(x, fm?.get(key), `${at}.get(${String(key)})`)] as [
                unknown,
                unknown,
              ],
          );
          return entries.some(([k, x]) => isMark(k) || isMark(x)) ? { [MARK]: 'm', v: entries } : v;
        }),
      );
    }
    if (v instanceof Set) {
      return keep(
        v,
        within(v, () => {
          const items = [...v].map((x) => image(x, undefined, `${at}.item`));
          return items.some(isMark) ? { [MARK]: 's', v: items } : v;
        }),
      );
    }
    // What they hold cannot be read: a memo of one would come back empty.
    if (v instanceof WeakMap || v instanceof WeakSet || v instanceof WeakRef || v instanceof Promise)
      throw new Unfit(at, `a ${className(v)}`);
    const fo = isObject(f) ? (f as Record<string, unknown>) : undefined;
    const own = v as Record<string, unknown>;
    // Closures of its own: an instance's (its constructor made them, of its wiring and itself) are
    // the fresh instance's; a plain object's may keep state in them, where no image can read it.
    const closures = (key: string) => typeof own[key] === 'function' && own[key] !== fo?.[key];
    if (isPlain(v)) {
      const key = Object.keys(own).find(closures);
      if (key !== undefined) throw new Unfit(`${at}.${key}`, 'a function of its own');
      return keep(
        v,
        within(v, () => copiedFields(own, fo, at)),
      );
    }
    const data = classes.find((k) => k.prototype === Object.getPrototypeOf(v));
    const bound = !data && fo !== undefined && Object.getPrototypeOf(fo) === Object.getPrototypeOf(v);
    if (!data && !bound) throw new Unfit(at, `a ${className(v)} the fresh board has not here`);
    const fields: Record<string, unknown> = {};
    const mark: Mark = {
      [MARK]: 'c',
      c: data ? data.name : className(v),
      ...(bound ? { b: true } : {}),
      v: fields,
    };
    keep(v, mark);
    for (const key of Object.keys(own)) {
      if (closures(key)) {
        if (!bound || typeof fo?.[key] !== 'function')
          throw new Unfit(`${at}.${key}`, 'a function of its own');
        continue;
      }
      fields[key] = image(own[key], fo?.[key], `${at}.${key}`);
    }
    return mark;
  };
  const keep = (v: object, out: unknown): unknown => {
    seen.set(v, out);
    return out;
  };
  const within = (v: object, make: () => unknown): unknown => {
    open.add(v);
    try {
      return make();
    } finally {
      open.delete(v);
    }
  };
  /** The array itself when no item changed, else a mark holding the changed items. */
  const copied = (v: unknown[], items: unknown[]): unknown =>
    items.some((x, i) => x !== v[i]) ? { [MARK]: 'a', v: items } : v;
  /** The object itself when no field changed, else a mark holding it with the changed fields. */
  const copiedFields = (
    own: Record<string, unknown>,
    fo: Record<string, unknown> | undefined,
    at: string,
  ) => {
    let fields: Record<string, unknown> | undefined;
    for (const key of Object.keys(own)) {
      const x = image(own[key], fo?.[key], `${at}.${key}`);
      if (x !== own[key] && !fields) fields = { ...own };
      if (fields) fields[key] = x;
    }
    return fields ? { [MARK]: 'o', v: fields } : own;
  };
  try {
    return { ok: true, value: image(live, fresh, '') };
  } catch (e) {
    if (e instanceof Unfit) return { ok: false, problem: { at: e.at || '(root)', why: e.why } };
    throw e;
  }
}

/**
 * Restores `image` into `fresh` (a board built by the same settings as the imaged one) and returns
 * the restored root: the imaged graph, its wiring the fresh board's. The image is taken apart (its
 * plain data becomes the board's): restore a copy, as structured clone gives. On a problem `fresh`
 * is left part-way: discard it.
 */
export function restoreImage(
  fresh: object,
  image: Image,
  classes: readonly DataClass[],
): ImageResult<object> {
  const done = new Map<Mark, unknown>();
  // A fresh instance restored into once: a second mark wanting it is a graph this image does not fit.
  const taken = new Set<object>();
  const value = (x: unknown, f: unknown, at: string): unknown => (isMark(x) ? restore(x, f, at) : x);
  const restore = (mark: Mark, f: unknown, at: string): unknown => {
    if (done.has(mark)) return done.get(mark);
    switch (mark[MARK]) {
      case 'w':
        if (f === undefined) throw new Unfit(at, 'the fresh board has nothing here');
        done.set(mark, f);
        return f;
      case 'a': {
        const out = mark.v;
        done.set(mark, out);
        const fa = Array.isArray(f) ? f : [];
        for (let i = 0; i < out.length; i++) out[i] = value(out[i], fa[i], `${at}[${i}]`);
        return out;
      }
      case 'm': {
        const out = new Map();
        done.set(mark, out);
        const fm = f instanceof Map ? f : undefined;
        for (const [k, x] of mark.v) {
          const key = value(k, undefined, `${at}.key`);
          out.set(key, value(x, fm?.get(key), `${at}.get(${String(key)})`));
        }
        return out;
      }
      case 's': {
        const out = new Set();
        done.set(mark, out);
        for (const x of mark.v) out.add(value(x, undefined, `${at}.item`));
        return out;
      }
      case 'o': {
        const out = mark.v;
        done.set(mark, out);
        const fo = isObject(f) ? (f as Record<string, unknown>) : undefined;
        for (const key of Object.keys(out)) out[key] = value(out[key], fo?.[key], `${at}.${key}`);
        return out;
      }
      case 'c': {
        let out: Record<string, unknown>;
        let before: Record<string, unknown> = {};
        if (mark.b) {
          // The fresh board's own instance, its wiring kept: restored into.
          if (!isObject(f) || isPlain(f) || className(f) !== mark.c || taken.has(f))
            throw new Unfit(at, `the fresh board has no ${mark.c} of its own here`);
          taken.add(f);
          out = f as Record<string, unknown>;
          before = { ...out };
          for (const key of Object.keys(out))
            if (!Object.hasOwn(mark.v, key) && typeof out[key] !== 'function') delete out[key];
        } else {
          const data = classes.find((k) => k.name === mark.c);
          if (!data) throw new Unfit(at, `no data class ${mark.c}`);
          out = Object.create(data.prototype) as Record<string, unknown>;
        }
        done.set(mark, out);
        for (const key of Object.keys(mark.v)) out[key] = value(mark.v[key], before[key], `${at}.${key}`);
        return out;
      }
    }
  };
  try {
    return { ok: true, value: value(image, fresh, '') as object };
  } catch (e) {
    if (e instanceof Unfit) return { ok: false, problem: { at: e.at || '(root)', why: e.why } };
    throw e;
  }
}
