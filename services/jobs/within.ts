/** Waits for `work` at most `ms`: whether it settled in time (its outcome is not inspected). */
export async function within(work: Promise<unknown>, ms: number): Promise<'settled' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  const settled = work.then(
    () => 'settled' as const,
    () => 'settled' as const,
  );
  const outcome = await Promise.race([settled, timeout]);
  clearTimeout(timer);
  return outcome;
}
