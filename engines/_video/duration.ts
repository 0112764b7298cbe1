/** Video durations: seconds → "M:SS" / "H:MM:SS", the form the other video engines show. */
export function formatDuration(seconds: unknown): string | undefined {
  const total =
    typeof seconds === 'number'
      ? seconds
      : typeof seconds === 'string' && /^\d+$/.test(seconds)
        ? Number(seconds)
        : NaN;
  if (!Number.isFinite(total) || total <= 0) return undefined;
  const whole = Math.round(total);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${secs}` : `${minutes}:${secs}`;
}

/** A clock-style duration found in text ("3:45", "1:02:03"), or undefined. */
export function durationInText(text: string): string | undefined {
  return /(?<![\d:])(\d{1,2}:)?\d{1,2}:\d{2}(?![\d:])/.exec(text)?.[0];
}
