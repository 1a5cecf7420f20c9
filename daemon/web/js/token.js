// The arbiter token of the console pages: taken from the address (`#token=…` as the daemon prints
// it, so it never travels in a request, or `?token=…`), then removed from the address bar and
// history, and kept for the tab in sessionStorage.
const TOKEN_KEY = 'damlink-arbiter-token';

export function takeToken(win = window) {
  const params = new URLSearchParams(win.location.search);
  const fragment = new URLSearchParams(win.location.hash.slice(1));
  const fromUrl = fragment.get('token') || params.get('token');
  if (fromUrl) {
    win.sessionStorage.setItem(TOKEN_KEY, fromUrl);
    params.delete('token');
    fragment.delete('token');
    const rest = params.toString();
    const hash = fragment.toString();
    win.history.replaceState(
      null,
      '',
      win.location.pathname + (rest ? `?${rest}` : '') + (hash ? `#${hash}` : ''),
    );
  }
  return fromUrl || win.sessionStorage.getItem(TOKEN_KEY) || '';
}

export function keepToken(token) {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function forgetToken() {
  sessionStorage.removeItem(TOKEN_KEY);
}
