import { describe, expect, it } from 'vitest';
import { hostState, hostStateChanges } from '../host-state.mjs';

describe('the host state npm test compares before and after a run', () => {
  it('names a bridge, a packet filter rule, forwarding and a /run folder left behind', () => {
    const before = hostState();
    const after = {
      ...before,
      links: `${before.links}\ndocker0`,
      iptables: `${before.iptables}\n-A POSTROUTING -s 172.17.0.0/16 ! -o docker0 -j MASQUERADE`,
      forwarding: before.forwarding === '1' ? '0' : '1',
      run: `${before.run}\ndocker`,
    };
    expect(hostStateChanges(before, after)).toEqual([
      'links: + docker0',
      'iptables: + -A POSTROUTING -s 172.17.0.0/16 ! -o docker0 -j MASQUERADE',
      `forwarding: + ${after.forwarding}`,
      `forwarding: - ${before.forwarding}`,
      'run: + docker',
    ]);
  });

  it('finds nothing changed between two readings of an untouched host', () => {
    expect(hostStateChanges(hostState(), hostState())).toEqual([]);
  });
});
