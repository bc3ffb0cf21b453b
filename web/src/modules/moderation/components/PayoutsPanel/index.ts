/** The console's Payouts tab. */
export { PayoutsPanel } from './PayoutsPanel';
