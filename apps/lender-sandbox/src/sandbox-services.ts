import type { FaultInjector } from './fault-injector.js';
import type { LenderSimulator } from './lender-simulator.js';

/** The two stateful pieces of one sandbox instance, handed to each route plugin as its options. */
export interface SandboxServices {
  simulator: LenderSimulator;
  faults: FaultInjector;
}
