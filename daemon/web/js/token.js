// The arbiter token of the console pages: taken from `?token=` (then removed from the address bar
// and history), kept for the tab in sessionStorage.
const TOKEN_KEY = 'damlink-arbiter-token';

export function takeToken(win = window) {
  const params = new URLSearchParams(win.location.search);
  const fromUrl = params.get('token');
  if (fromUrl) {
    win.sessionStorage.setItem(TOKEN_KEY, fromUrl);
    params.delete('token');
    const rest = params.toString();
    win.history.replaceState(null, '', win.location.pathname + (rest ? `?${rest}` : '') + win.location.hash);
  }
  return fromUrl || win.sessionStorage.getItem(TOKEN_KEY) || '';
}

export function keepToken(token) {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function forgetToken() {
  sessionStorage.removeItem(TOKEN_KEY);
}
