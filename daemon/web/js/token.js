// The arbiter's token, shared by the console's pages: taken from `?token=` (then removed from the
// address bar and history) or from this tab's session.

export const TOKEN_KEY = 'damlink-arbiter-token';

export function takeToken() {
  const params = new URLSearchParams(location.search);
  const fromUrl = params.get('token');
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    // Keep the secret out of the address bar and history.
    params.delete('token');
    const rest = params.toString();
    history.replaceState(null, '', location.pathname + (rest ? `?${rest}` : '') + location.hash);
  }
  return fromUrl || sessionStorage.getItem(TOKEN_KEY) || '';
}
