// The layers of CONTRIBUTING.md, read from the tree's own imports: each rule names folders one may
// not import from another, and no files import each other round in a circle. Every relative import
// counts (type-only ones too: they tie the files as much for a reader).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

/** `from` may not import anything under `to` (paths from the repository's root, ending in `/`). */
const RULES: ReadonlyArray<{ from: string; to: string; why: string }> = [
  { from: 'firmware-protocol/', to: 'src/', why: 'the codecs import nothing of ours' },
  { from: 'firmware-protocol/', to: 'daemon/', why: 'the codecs import nothing of ours' },
  { from: 'src/', to: 'daemon/', why: 'the core is pure' },
  { from: 'src/', to: 'simulator/', why: 'the core is pure' },
  { from: 'simulator/', to: 'daemon/', why: 'the simulator speaks to a daemon through the protocols only' },
  {
    from: 'daemon/ingest/',
    to: 'daemon/board/',
    why: "ingest hands inputs on; a board's game is in src/game",
  },
  {
    from: 'daemon/routing/',
    to: 'daemon/board/',
    why: 'routing binds connections to boards, not to their games',
  },
  { from: 'daemon/board/', to: 'daemon/transport/', why: "a board's game knows no connection" },
  { from: 'daemon/publish/', to: 'daemon/server/', why: 'publishing and serving both read daemon/views/' },
  { from: 'daemon/publish/', to: 'daemon/web/js/', why: 'page code: the shared shelf is daemon/web/shared/' },
  { from: 'daemon/server/', to: 'daemon/web/js/', why: 'page code: the shared shelf is daemon/web/shared/' },
  { from: 'daemon/views/', to: 'daemon/server/', why: 'the views are read by the server, not the other way' },
  { from: 'daemon/web/shared/', to: 'daemon/web/js/', why: 'the shelf stands on its own' },
  { from: 'daemon/tournament/', to: 'daemon/commands/', why: 'errors come from daemon/failure.ts' },
  { from: 'daemon/tournament/', to: 'daemon/server/', why: "the tournament's access is its own" },
  { from: 'daemon/journal/', to: 'src/tracker/', why: 'the journal is storage only' },
];

type Graph = ReadonlyMap<string, readonly string[]>;

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}\/[^'"]+)\1/gm;

/** Each tracked source file and the files of ours it imports. */
function importGraph(): Graph {
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--', 'src', 'daemon', 'firmware-protocol', 'simulator'],
    {
      encoding: 'utf8',
    },
  )
    .split('\0')
    .filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)].map((m) => normalize(join(dirname(file), m[2])));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The imports that break a rule: `file -> target (why)`. */
function broken(graph: Graph): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph)
    for (const target of targets)
      for (const rule of RULES)
        if (file.startsWith(rule.from) && target.startsWith(rule.to))
          out.push(`${file} -> ${target} (${rule.why})`);
  return out;
}

/** Groups of two or more files that import each other round (Tarjan's strongly connected components). */
function circles(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) out.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe("the tree's layers", () => {
  const graph = importGraph();

  it('reads the imports of the whole tree', () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get('daemon/controller.ts')).toContain('daemon/live-board.ts');
  });

  it('no import breaks a layer rule', () => {
    expect(broken(graph)).toEqual([]);
  });

  it('no files import each other round in a circle', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('each rule catches an import that breaks it, and a circle is found', () => {
    for (const rule of RULES) {
      const file = `${rule.from}x.ts`;
      expect(broken(new Map([[file, [`${rule.to}y.ts`]]]))).toHaveLength(1);
    }
    const round = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circles(round)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('the transport asks nothing upward: what it tells its owner returns nothing, and its clock is a clock', () => {
    // A callback with an answer is a question: a board's time or what is stored of it, asked of the
    // layers above for each chunk. The owner says what the link needs (`remember`) instead.
    const text = readFileSync('daemon/transport/connection-options.ts', 'utf8');
    const events = /export interface ConnectionEvents \{([\s\S]*?)\n\}/.exec(text)?.[1] ?? '';
    const members = [...events.matchAll(/^ {2}(\w+)\??\(/gm)].map((m) => m[1]);
    expect(members).toEqual(['onState', 'onOpenProblem', 'onEvents', 'onLog']);
    const answers = [...events.matchAll(/\): ([^;]+);$/gm)].map((m) => m[1]);
    expect(answers).toEqual(members.map(() => 'void'));
    expect(text).toMatch(/eventTime\?: \(\) => number;/);
    expect(readFileSync('daemon/routing/connections.ts', 'utf8')).toMatch(
      /eventTime: \(\) => this\.options\.clock\.now\(\)/,
    );
  });
});
