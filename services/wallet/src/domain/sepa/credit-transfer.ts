import { AppError } from '@challenge/kit';
import { isCountryCode, validateBic, validateIban } from '../bank-account.ts';
import { isSepaReference, toSepaText } from './charset.ts';
import { el, renderXmlDocument, type XmlElement } from './xml.ts';

export type PainVersion = 'pain.001.001.09' | 'pain.001.001.03';

export interface PostalAddressInput {
  street?: string;
  postalCode?: string;
  city?: string;
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
}

export interface CreditTransferPayment {
  /** The payout's reference, returned on bank statements: 1-35 SEPA characters, unique. */
  endToEndId: string;
  /** Integer euro cents, 1 to 99 999 999 999 (EUR 999 999 999.99, the EPC maximum). */
  amountCents: number;
  creditor: { name: string; iban: string; bic?: string; address?: PostalAddressInput };
  remittanceInformation: string;
}

export interface CreditTransferInput {
  /** Defaults to pain.001.001.09, the EPC's current customer-to-bank message. */
  version?: PainVersion;
  /** 1-35 SEPA characters, unique per file sent to the bank; also used as payment information id. */
  messageId: string;
  createdAt: Date;
  initiatingParty: { name: string };
  /** The platform's account that pays out. */
  debtor: { name: string; iban: string; bic?: string };
  /** A calendar date, read in UTC. */
  requestedExecutionDate: Date;
  payments: readonly CreditTransferPayment[];
}

export interface CreditTransferFile {
  xml: string;
  messageId: string;
  numberOfTransactions: number;
  controlSumCents: number;
}

/** The schemas the files are written for (copies of ../shared/data/sepa/, see its README). */
export const PAIN_SCHEMAS: Readonly<Record<PainVersion, URL>> = {
  'pain.001.001.09': new URL('./schemas/pain.001.001.09.xsd', import.meta.url),
  'pain.001.001.03': new URL('./schemas/pain.001.001.03.xsd', import.meta.url),
};

/** The EPC's per-transaction maximum, EUR 999 999 999.99. */
const MAX_AMOUNT_CENTS = 99_999_999_999;
const NOT_PROVIDED = 'NOTPROVIDED';

function refuse(message: string): never {
  throw new AppError('invalid_input', message);
}

/** Cents to the schema's decimal with exactly two fraction digits, without floating point. */
export function formatCents(cents: bigint): string {
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}

function checkDate(date: Date, what: string): Date {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) refuse(`The ${what} is not a date.`);
  return date;
}

/** A name in the SEPA character set, at most 70 characters; refused if nothing usable is left. */
function sepaName(name: string, what: string): string {
  return toSepaText(name, 70) || refuse(`The ${what} has no characters usable in a SEPA file.`);
}

/** Runs a validation that throws AppError and puts `context` in front of its message. */
function within<T>(context: string, validate: () => T): T {
  try {
    return validate();
  } catch (error) {
    if (error instanceof AppError) refuse(`${context}: ${error.message}`);
    throw error;
  }
}

/**
 * A SEPA credit-transfer initiation (pain.001) for a batch of payouts: one payment information
 * block with batch booking, EUR only, amounts from integer cents. Texts are reduced to the SEPA
 * character set and cut to the schema lengths; references, IBANs, BICs and amounts are refused
 * with `invalid_input` instead, since changing them would move money to the wrong place.
 */
export function buildCreditTransferFile(input: CreditTransferInput): CreditTransferFile {
  const version = input.version ?? 'pain.001.001.09';
  const v09 = version === 'pain.001.001.09';
  if (input.payments.length === 0) refuse('There are no open payouts to export.');
  if (!isSepaReference(input.messageId)) {
    refuse(
      "The message id must be 1 to 35 SEPA characters (letters, digits, / - ? : ( ) . , ' +).",
    );
  }
  const createdAt = checkDate(input.createdAt, 'creation time');
  const executionDate = checkDate(input.requestedExecutionDate, 'requested execution date');
  const initiatingPartyName = sepaName(input.initiatingParty.name, 'initiating party name');
  const debtorName = sepaName(input.debtor.name, 'debtor name');
  const debtorIban = within('Debtor IBAN', () => validateIban(input.debtor.iban));
  const debtorBicInput = input.debtor.bic?.trim() || undefined; // an empty BIC is an absent one
  const debtorBic =
    debtorBicInput === undefined
      ? undefined
      : within('Debtor BIC', () => validateBic(debtorBicInput, debtorIban.slice(0, 2)));

  const seen = new Set<string>();
  let controlSum = 0n;
  const transactions = input.payments.map((payment, index) => {
    const { endToEndId, amountCents, creditor } = payment;
    if (!isSepaReference(endToEndId)) {
      refuse(`Payment ${index + 1}: the end-to-end id must be 1 to 35 SEPA characters.`);
    }
    if (seen.has(endToEndId)) refuse(`Payment ${endToEndId} appears twice in the file.`);
    seen.add(endToEndId);
    if (!Number.isSafeInteger(amountCents) || amountCents < 1 || amountCents > MAX_AMOUNT_CENTS) {
      refuse(
        `Payment ${endToEndId}: the amount must be a whole number of cents from 1 to 99999999999.`,
      );
    }
    controlSum += BigInt(amountCents);
    const iban = within(`Payment ${endToEndId}`, () => validateIban(creditor.iban));
    const bicInput = creditor.bic?.trim() || undefined;
    const bic =
      bicInput === undefined
        ? undefined
        : within(`Payment ${endToEndId}`, () => validateBic(bicInput, iban.slice(0, 2)));
    const name = within(`Payment ${endToEndId}`, () => sepaName(creditor.name, 'creditor name'));
    const remittance = toSepaText(payment.remittanceInformation, 140);
    return el('CdtTrfTxInf', [
      el('PmtId', [el('EndToEndId', endToEndId)]),
      el('Amt', [el('InstdAmt', formatCents(BigInt(amountCents)), { Ccy: 'EUR' })]),
      // Without a BIC the creditor agent is left out: the EPC schema only allows a BIC there.
      bic && el('CdtrAgt', [el('FinInstnId', [el(v09 ? 'BICFI' : 'BIC', bic)])]),
      el('Cdtr', [
        el('Nm', name),
        creditor.address && postalAddress(creditor.address, v09, endToEndId),
      ]),
      el('CdtrAcct', [el('Id', [el('IBAN', iban)])]),
      remittance && el('RmtInf', [el('Ustrd', remittance)]),
    ]);
  });
  if (controlSum > BigInt(Number.MAX_SAFE_INTEGER)) refuse('The file total is too large.');

  const numberOfTransactions = String(input.payments.length);
  const total = formatCents(controlSum);
  const date = executionDate.toISOString().slice(0, 10);
  const document = el(
    'Document',
    [
      el('CstmrCdtTrfInitn', [
        el('GrpHdr', [
          el('MsgId', input.messageId),
          el('CreDtTm', createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z')),
          el('NbOfTxs', numberOfTransactions),
          el('CtrlSum', total),
          el('InitgPty', [el('Nm', initiatingPartyName)]),
        ]),
        el('PmtInf', [
          el('PmtInfId', input.messageId),
          el('PmtMtd', 'TRF'),
          el('BtchBookg', 'true'),
          el('NbOfTxs', numberOfTransactions),
          el('CtrlSum', total),
          el('PmtTpInf', [el('SvcLvl', [el('Cd', 'SEPA')])]),
          el('ReqdExctnDt', v09 ? [el('Dt', date)] : date),
          el('Dbtr', [el('Nm', debtorName)]),
          el('DbtrAcct', [el('Id', [el('IBAN', debtorIban)])]),
          el('DbtrAgt', [
            el('FinInstnId', [
              debtorBic
                ? el(v09 ? 'BICFI' : 'BIC', debtorBic)
                : el('Othr', [el('Id', NOT_PROVIDED)]),
            ]),
          ]),
          el('ChrgBr', 'SLEV'),
          ...transactions,
        ]),
      ]),
    ],
    { xmlns: `urn:iso:std:iso:20022:tech:xsd:${version}` },
  );
  return {
    xml: renderXmlDocument(document),
    messageId: input.messageId,
    numberOfTransactions: input.payments.length,
    controlSumCents: Number(controlSum),
  };
}

/**
 * pain.001.001.09 takes the structured address (street, postal code, town, country), as the EPC
 * requires from November 2025; pain.001.001.03 only the country and two free address lines.
 */
function postalAddress(address: PostalAddressInput, v09: boolean, endToEndId: string): XmlElement {
  const country = address.countryCode.trim().toUpperCase();
  if (!isCountryCode(country)) {
    refuse(`Payment ${endToEndId}: the address country ${country} is not an ISO country code.`);
  }
  const street = toSepaText(address.street ?? '', 70);
  if (v09) {
    const postalCode = toSepaText(address.postalCode ?? '', 16);
    const town = toSepaText(address.city ?? '', 35);
    return el('PstlAdr', [
      street && el('StrtNm', street),
      postalCode && el('PstCd', postalCode),
      town && el('TwnNm', town),
      el('Ctry', country),
    ]);
  }
  const townLine = toSepaText(`${address.postalCode ?? ''} ${address.city ?? ''}`, 70);
  return el('PstlAdr', [
    el('Ctry', country),
    street && el('AdrLine', street),
    townLine && el('AdrLine', townLine),
  ]);
}
