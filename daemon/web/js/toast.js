// Short notes in a corner of the console's pages: a call done, or why it failed.

export function toast(text, isError = false) {
  const el = document.createElement('div');
  el.className = `toast${isError ? ' error' : ''}`;
  el.setAttribute('role', isError ? 'alert' : 'status');
  el.textContent = text;
  let stack = document.querySelector('.toasts');
  if (!stack) {
    stack = document.createElement('div');
    stack.className = 'toasts';
    document.body.append(stack);
  }
  stack.append(el);
  setTimeout(() => el.remove(), isError ? 6000 : 2500);
}
