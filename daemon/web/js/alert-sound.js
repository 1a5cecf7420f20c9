// New alerts on the arbiter console: a sound and a browser notification, each switchable (the
// choice kept in the browser).
import { t } from '../shared/i18n.js';
import { alertText } from './rules.js';

/**
 * Announces new alerts as the two switches say.
 * @param {HTMLInputElement} soundToggle
 * @param {HTMLInputElement} notifyToggle
 * @returns {(alerts: any[]) => void}
 */
export function alertAnnouncer(soundToggle, notifyToggle) {
  const ui = { sound: soundToggle, notify: notifyToggle };
  const SOUND_KEY = 'damlink-alert-sound';
  const NOTIFY_KEY = 'damlink-alert-notify';
  let audio;

  function announce(alerts) {
    if (!alerts.length) return;
    if (ui.sound.checked) beep();
    if (ui.notify.checked && 'Notification' in window && Notification.permission === 'granted') {
      for (const a of alerts.slice(0, 3)) {
        new Notification(t('arbiter.newAlert', { board: a.board, rule: a.rule }), {
          body: alertText(a),
          tag: `${a.board}-${a.id}`,
        });
      }
    }
  }

  function beep() {
    try {
      audio ??= new AudioContext();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.2, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.4);
    } catch {
      // No audio output: the alert is still on screen.
    }
  }

  // Browsers keep audio silent until the reader has touched the page: the first touch unlocks it.
  for (const type of ['pointerdown', 'keydown']) {
    document.addEventListener(
      type,
      () => {
        if (!ui.sound.checked) return;
        audio ??= new AudioContext();
        audio.resume?.();
      },
      { once: true },
    );
  }
  ui.sound.checked = localStorage.getItem(SOUND_KEY) !== '0';
  ui.notify.checked = localStorage.getItem(NOTIFY_KEY) === '1';
  ui.sound.addEventListener('change', () => localStorage.setItem(SOUND_KEY, ui.sound.checked ? '1' : '0'));
  ui.notify.addEventListener('change', async () => {
    if (ui.notify.checked && 'Notification' in window && Notification.permission === 'default')
      await Notification.requestPermission();
    localStorage.setItem(NOTIFY_KEY, ui.notify.checked ? '1' : '0');
  });
  return announce;
}
