// What every page does first: the reader's language (static texts, <html lang>, a menu) and the
// colour theme (the system's, or the reader's choice, kept for the next visit).
import {
  language,
  languageNames,
  loadLanguage,
  pageLanguages,
  rememberLanguage,
  t,
  translateStatic,
} from '../shared/i18n.js';

const THEME_KEY = 'damlink-theme';

/** The connection's state in the header's status element (`open`, `connecting`, else closed). */
export function showStatus(element, status) {
  element.dataset.status = status;
  element.textContent = t(
    { open: 'status.connected', connecting: 'status.connecting' }[status] ?? 'status.closed',
  );
}
const THEMES = ['auto', 'light', 'dark'];

export async function setupPage() {
  applyTheme(localStorage.getItem(THEME_KEY) ?? 'auto');
  await loadLanguage();
  translateStatic();
  const tools = document.querySelector('.tools');
  if (tools) tools.append(menus());
}

const systemDark = matchMedia('(prefers-color-scheme: dark)');
let chosenTheme = 'auto';

/** `auto` follows the system setting, also when it changes while the page is open. */
function applyTheme(theme) {
  chosenTheme = theme;
  const dark = theme === 'dark' || (theme === 'auto' && systemDark.matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}
systemDark.addEventListener('change', () => applyTheme(chosenTheme));

function select(id, label, options, value, onChange) {
  const wrap = document.createElement('label');
  wrap.className = 'menu';
  wrap.append(`${label} `);
  const el = document.createElement('select');
  el.id = id;
  for (const [v, text] of options) el.add(new Option(text, v, false, v === value));
  el.addEventListener('change', () => onChange(el.value));
  wrap.append(el);
  return wrap;
}

function menus() {
  const box = document.createElement('span');
  box.className = 'menus';
  const names = languageNames();
  const languages = pageLanguages().map((code) => [code, names[code] ?? code]);
  box.append(
    select('lang-menu', t('page.language'), languages, language(), (code) => rememberLanguage(code)),
    select(
      'theme-menu',
      t('page.theme'),
      THEMES.map((name) => [name, t(`theme.${name}`)]),
      localStorage.getItem(THEME_KEY) ?? 'auto',
      (theme) => {
        localStorage.setItem(THEME_KEY, theme);
        applyTheme(theme);
      },
    ),
  );
  return box;
}
