// The host's network and runtime state a container engine can change: its network links (a docker0 or br-…
// bridge), its packet filter rules (iptables, ip6tables, nftables: DOCKER chains, NAT, the FORWARD policy), IP
// forwarding, and the engines' folders under /run. test.mjs takes it before and after a run and fails when they
// differ, so the compose test (which starts a dockerd of its own) is held to leaving the host as it found it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';

function command(program, args) {
  const result = spawnSync(program, args, { encoding: 'utf8' });
  if (result.error || result.status !== 0)
    return `(${program} not readable: ${result.error?.code ?? result.status})`;
  return result.stdout;
}

/** `iptables-save`'s rules without its timestamps and packet counters, which change with traffic alone. */
function filterRules(program) {
  return command(program, [])
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .map((line) => line.replace(/\s*\[\d+:\d+\]$/, ''))
    .join('\n');
}

/** Each part of the state, by name: `{ links, iptables, ip6tables, nftables, forwarding, run }`. */
export function hostState() {
  return {
    links: command('ip', ['-o', 'link', 'show'])
      .split('\n')
      .map((line) => line.split(':')[1]?.trim().split('@')[0])
      .filter(Boolean)
      .sort()
      .join('\n'),
    iptables: filterRules('iptables-save'),
    ip6tables: filterRules('ip6tables-save'),
    nftables: command('nft', ['list', 'ruleset']).replace(/counter packets \d+ bytes \d+/g, 'counter'),
    forwarding: existsSync('/proc/sys/net/ipv4/ip_forward')
      ? readFileSync('/proc/sys/net/ipv4/ip_forward', 'utf8').trim()
      : '',
    run: existsSync('/run')
      ? readdirSync('/run')
          .filter((name) => /^(docker|containerd)/.test(name))
          .sort()
          .join('\n')
      : '',
  };
}

/** The lines that differ between two states, as `<part>: + line` (appeared) or `<part>: - line` (went). */
export function hostStateChanges(before, after) {
  const changes = [];
  for (const part of Object.keys(before)) {
    const was = new Set(before[part].split('\n').filter(Boolean));
    const is = new Set(after[part].split('\n').filter(Boolean));
    for (const line of is) if (!was.has(line)) changes.push(`${part}: + ${line}`);
    for (const line of was) if (!is.has(line)) changes.push(`${part}: - ${line}`);
  }
  return changes;
}
