export interface HostState {
  links: string;
  iptables: string;
  ip6tables: string;
  nftables: string;
  forwarding: string;
  run: string;
}
export function hostState(): HostState;
export function hostStateChanges(before: HostState, after: HostState): string[];
