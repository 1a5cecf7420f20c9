// Keyed rendering: a list of elements kept in step with a list of items by key. A known key keeps
// its element (and whatever the reader is typing in it); only what changed is written.

/**
 * @template T
 * @param {Element} container
 * @param {T[]} items in the order they are shown
 * @param {{ key: (item: T) => string | number, create: (item: T) => Element,
 *   update: (el: Element, item: T) => void }} how
 */
export function renderKeyed(container, items, how) {
  const known = new Map();
  for (const el of [...container.children]) {
    if (el instanceof HTMLElement && el.dataset.key !== undefined) known.set(el.dataset.key, el);
    else el.remove();
  }
  let previous = null;
  for (const item of items) {
    const key = String(how.key(item));
    let el = known.get(key);
    if (el) known.delete(key);
    else {
      el = how.create(item);
      el.dataset.key = key;
    }
    how.update(el, item);
    const slot = previous ? previous.nextElementSibling : container.firstElementChild;
    if (el !== slot) container.insertBefore(el, slot);
    previous = el;
  }
  for (const el of known.values()) el.remove();
}

/**
 * Writes the server's value into a field unless the reader changed it since the last one (their
 * text wins until they save it or the server comes to agree).
 * @param {HTMLInputElement | HTMLSelectElement} field
 * @param {string} value
 */
export function syncField(field, value) {
  const dirty = field.dataset.server !== undefined && field.value !== field.dataset.server;
  if (!dirty) field.value = value;
  field.dataset.server = value;
}

/** Sets text only when it differs (no needless layout, no lost selection). */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

const given = new WeakMap();

/** Sets inner HTML only when it differs from what this element was last given. */
export function setHtml(el, html) {
  if (given.get(el) === html) return;
  given.set(el, html);
  el.innerHTML = html;
}
