/**
 * The optional alerts for new requests (提现, 提取, 充值) that the live channel reports: a short tone
 * and a browser notification, each off until the manager turns it on (kept in this browser).
 */
import type { LiveChange } from '../../domain/live';

export const ALERTS_KEY = 'lz-live-alerts';

export interface AlertSettings {
  sound: boolean;
  notify: boolean;
}

export function readAlertSettings(): AlertSettings {
  try {
    const v = JSON.parse(window.localStorage.getItem(ALERTS_KEY) ?? '{}') as Partial<AlertSettings>;
    return { sound: v.sound === true, notify: v.notify === true };
  } catch {
    return { sound: false, notify: false };
  }
}

export function saveAlertSettings(s: AlertSettings): void {
  window.localStorage.setItem(ALERTS_KEY, JSON.stringify(s));
}

const LABELS = { withdraw: '提现', extract: '提取', deposit: '充值' } as const;

/** "新申请：提现 2 笔，充值 1 笔", or '' when there is nothing new. */
export function newsText(news: LiveChange['news']): string {
  const parts = (Object.keys(LABELS) as Array<keyof typeof LABELS>)
    .filter((k) => (news[k] ?? 0) > 0)
    .map((k) => `${LABELS[k]} ${news[k]} 笔`);
  return parts.length ? `新申请：${parts.join('，')}` : '';
}

let audio: AudioContext | null = null;

/** Two short tones (no sound file to download). */
function beep(): void {
  const Ctor = window.AudioContext;
  if (!Ctor) return;
  audio ??= new Ctor();
  const at = audio.currentTime;
  for (const [i, freq] of [880, 1320].entries()) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.15, at + i * 0.18);
    gain.gain.exponentialRampToValueAtTime(0.001, at + i * 0.18 + 0.16);
    osc.connect(gain).connect(audio.destination);
    osc.start(at + i * 0.18);
    osc.stop(at + i * 0.18 + 0.17);
  }
}

const PLAYED_KEY = 'lz-live-alert-at';

/** Every open tab hears the same news: only the first to claim it (within 3 s) plays the tone. */
function firstTab(): boolean {
  const now = Date.now();
  const last = Number(window.localStorage.getItem(PLAYED_KEY) ?? 0);
  if (now - last < 3000) return false;
  window.localStorage.setItem(PLAYED_KEY, String(now));
  return true;
}

/** Plays and shows what the manager turned on, for the news of one change. */
export function alertNews(news: LiveChange['news']): void {
  const text = newsText(news);
  if (!text) return;
  const s = readAlertSettings();
  if (s.sound && firstTab()) {
    try {
      beep();
    } catch {
      // No audio output: the notification and the badges still tell.
    }
  }
  if (s.notify && typeof Notification !== 'undefined' && Notification.permission === 'granted') {
    new Notification('后台管理控制台', { body: text, tag: 'lz-live-news' });
  }
}
