import { describe, expect, it } from 'vitest';
import { hostState, hostStateChanges } from '../host-state.mjs';

// npm test runs these beside the compose test, whose dockerd adds and removes a bridge, rules and /run folders
// while it runs: the comparisons start from a host described here, not from the live one.
const quietHost = {
  links: 'eth0\nlo',
  iptables: '*filter\n:INPUT ACCEPT\n:FORWARD ACCEPT\n:OUTPUT ACCEPT\nCOMMIT',
  ip6tables: '',
  nftables: '',
  forwarding: '0',
  run: '',
};

describe('the host state npm test compares before and after a run', () => {
  it('names a bridge, a packet filter rule, forwarding and a /run folder left behind', () => {
    const after = {
      ...quietHost,
      links: `${quietHost.links}\ndocker0`,
      iptables: `${quietHost.iptables}\n-A POSTROUTING -s 172.17.0.0/16 ! -o docker0 -j MASQUERADE`,
      forwarding: '1',
      run: 'docker',
    };
    expect(hostStateChanges(quietHost, after)).toEqual([
      'links: + docker0',
      'iptables: + -A POSTROUTING -s 172.17.0.0/16 ! -o docker0 -j MASQUERADE',
      'forwarding: + 1',
      'forwarding: - 0',
      'run: + docker',
    ]);
  });

  it('finds nothing changed between two equal states, and reads every part of this host', () => {
    expect(hostStateChanges(quietHost, { ...quietHost })).toEqual([]);
    const state = hostState();
    expect(Object.keys(state).sort()).toEqual(Object.keys(quietHost).sort());
    expect(state.links.split('\n')).toContain('lo');
    expect(['0', '1']).toContain(state.forwarding);
  });
});
