/**
 * Force-killing a browser that Playwright cannot close. A launched browser
 * has no kill in Playwright's client API, and browser.close() waits for the
 * process to exit, which a hung (or stopped) Chromium never does. So every
 * launch carries a unique marker switch (Chromium ignores switches it does not
 * know; /usr/bin/chromium execs the real binary with all of them), by which
 * we find the process in /proc and SIGKILL it together with its process group
 * (Playwright spawns the browser as a group leader, helpers included).
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** A switch to pass at launch that names this one browser process. */
export function launchMarker(): string {
  return `--quarry-browser=${randomUUID()}`;
}

/** SIGKILLs every process started with marker (and the group it leads); returns their pids. Linux only. */
export function killMarkedProcesses(marker: string): number[] {
  if (process.platform !== 'linux') return [];
  const killed: number[] = [];
  for (const pid of pidsWithArgument(marker)) {
    try {
      process.kill(leadsItsGroup(pid) ? -pid : pid, 'SIGKILL');
      killed.push(pid);
    } catch {
      // Gone in the meantime.
    }
  }
  return killed;
}

function pidsWithArgument(argument: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries.filter((entry) => /^\d+$/.test(entry) && readArguments(entry).includes(argument)).map(Number);
}

function readArguments(pid: string): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

function leadsItsGroup(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after "(comm)": state ppid pgrp ...
    const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    return pgrp === pid;
  } catch {
    return false;
  }
}
