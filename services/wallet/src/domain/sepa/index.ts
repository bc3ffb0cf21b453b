export {
  buildCreditTransferFile,
  formatCents,
  PAIN_SCHEMAS,
  type CreditTransferFile,
  type CreditTransferInput,
  type CreditTransferPayment,
  type PainVersion,
  type PostalAddressInput,
} from './credit-transfer.ts';
export { isSepaReference, isSepaText, toSepaText } from './charset.ts';
