import { readFile } from 'node:fs/promises';
import { AppError } from '@challenge/kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateXML, type XMLValidationResult } from 'xmllint-wasm';
import {
  buildCreditTransferFile,
  formatCents,
  PAIN_SCHEMAS,
  type CreditTransferInput,
  type CreditTransferPayment,
  type PainVersion,
} from '../src/domain/sepa/index.ts';

const VERSIONS: PainVersion[] = ['pain.001.001.09', 'pain.001.001.03'];
const schemaText = Object.fromEntries(
  await Promise.all(VERSIONS.map(async (v) => [v, await readFile(PAIN_SCHEMAS[v], 'utf8')])),
) as Record<PainVersion, string>;

/** Validates one or more files against a schema with libxml2 (xmllint-wasm): about 0.4 s a call. */
function validate(version: PainVersion, ...xml: string[]): Promise<XMLValidationResult> {
  return validateXML({
    xml: xml.map((contents, index) => ({ fileName: `file-${index}.xml`, contents })),
    schema: [schemaText[version]],
  });
}

async function expectValid(xml: string, version: PainVersion): Promise<void> {
  const result = await validate(version, xml);
  expect(result.valid, `${version}:\n${result.rawOutput}\n${xml}`).toBe(true);
}

function payout(n: number, overrides: Partial<CreditTransferPayment> = {}): CreditTransferPayment {
  return {
    endToEndId: `PAYOUT-${n}`,
    amountCents: 1000 * n + 34,
    creditor: { name: `Creditor ${n}`, iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
    remittanceInformation: `Payout ${n} from Challenge`,
    ...overrides,
  };
}

function input(overrides: Partial<CreditTransferInput> = {}): CreditTransferInput {
  return {
    messageId: 'PAYOUTS-20260115-1',
    createdAt: new Date('2026-01-15T10:30:00.123Z'),
    initiatingParty: { name: 'Challenge Platform B.V.' },
    debtor: { name: 'Challenge Platform B.V.', iban: 'NL91ABNA0417164300', bic: 'ABNANL2A' },
    requestedExecutionDate: new Date('2026-01-16'),
    payments: [payout(1), payout(2), payout(3)],
    ...overrides,
  };
}

const all = (xml: string, tag: string) =>
  [...xml.matchAll(new RegExp(`<${tag}[^>]*>([^<]*)</${tag}>`, 'g'))].map((m) => m[1] ?? '');

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).identifier).toBe('invalid_input');
    return (error as AppError).message;
  }
  throw new Error('expected a refusal');
}

describe.each(VERSIONS)('a %s file', (version) => {
  it('for 3 payouts validates, with matching NbOfTxs and CtrlSum', async () => {
    const file = buildCreditTransferFile(input({ version }));
    expect(file).toMatchObject({
      messageId: 'PAYOUTS-20260115-1',
      numberOfTransactions: 3,
      controlSumCents: 1034 + 2034 + 3034,
    });
    expect(file.xml).toContain(`xmlns="urn:iso:std:iso:20022:tech:xsd:${version}"`);
    expect(all(file.xml, 'NbOfTxs')).toEqual(['3', '3']);
    expect(all(file.xml, 'CtrlSum')).toEqual(['61.02', '61.02']);
    expect(all(file.xml, 'InstdAmt')).toEqual(['10.34', '20.34', '30.34']);
    expect(all(file.xml, 'EndToEndId')).toEqual(['PAYOUT-1', 'PAYOUT-2', 'PAYOUT-3']);
    expect(all(file.xml, 'BtchBookg')).toEqual(['true']);
    expect(file.xml).toContain('<InstdAmt Ccy="EUR">');
    expect(file.xml).toContain(version.endsWith('09') ? '<BICFI>ABNANL2A' : '<BIC>ABNANL2A');
    await expectValid(file.xml, version);
  });

  it('carries 1 cent, 10 cents, EUR 9 999 999.99 and the EPC maximum exactly', async () => {
    const amounts = [1, 10, 999_999_999, 99_999_999_999];
    const file = buildCreditTransferFile(
      input({ version, payments: amounts.map((amountCents, i) => payout(i, { amountCents })) }),
    );
    expect(all(file.xml, 'InstdAmt')).toEqual(['0.01', '0.10', '9999999.99', '999999999.99']);
    expect(file.controlSumCents).toBe(1 + 10 + 999_999_999 + 99_999_999_999);
    expect(all(file.xml, 'CtrlSum')[0]).toBe('1010000000.09');
    await expectValid(file.xml, version);
  });

  it('turns hostile names and texts into schema-valid SEPA text', async () => {
    const file = buildCreditTransferFile(
      input({
        version,
        debtor: { name: 'Défi & Co <b>', iban: 'NL91ABNA0417164300' },
        payments: [
          payout(1, {
            creditor: {
              name: 'Zoë "Zo" O’Brien-Müller 🎉 <script>alert(1)</script>',
              iban: 'FR1420041010050500013M02606',
              address: {
                street: 'Straße 1 & 2',
                postalCode: '75001',
                city: 'Paris',
                countryCode: 'fr',
              },
            },
            remittanceInformation: 'Gewinn für «Challenge» ✓ & mehr; ]]> <!-- -->',
          }),
          payout(2, {
            creditor: { name: 'Иван Петров', iban: 'BG80BNBG96611020345678' },
            remittanceInformation: '🎉🎉🎉',
          }),
        ],
      }),
    );
    expect(all(file.xml, 'Nm')).toEqual([
      'Challenge Platform B.V.',
      'Defi + Co b',
      'Zoe Zo O&apos;Brien-Muller script alert(1) /script',
      'Ivan Petrov',
    ]);
    expect(all(file.xml, 'Ustrd')).toEqual(['Gewinn fur Challenge + mehr -- --']);
    expect(file.xml).not.toMatch(/<script|<b>|🎉|&amp;|CDATA|<!--/);
    await expectValid(file.xml, version);
  });

  it('cuts over-long names, remittance texts and addresses to the schema lengths', async () => {
    const long = (word: string) => `${word} `.repeat(60);
    const file = buildCreditTransferFile(
      input({
        version,
        initiatingParty: { name: long('Initiating') },
        payments: [
          payout(1, {
            creditor: {
              name: long('Namé'),
              iban: 'IE29AIBK93115212345678',
              address: {
                street: long('Street'),
                postalCode: 'D02 XY45 EXTRA LONG CODE',
                city: long('Dublin'),
                countryCode: 'IE',
              },
            },
            remittanceInformation: long('Remittance'),
          }),
        ],
      }),
    );
    const names = all(file.xml, 'Nm');
    expect(names[0]).toHaveLength(70);
    expect(names[2]).toMatch(/^(Name ){13}Name$/); // 69 characters, the cut space dropped
    expect(all(file.xml, 'Ustrd')[0]).toHaveLength(140);
    if (version === 'pain.001.001.09') {
      expect(all(file.xml, 'StrtNm')[0]).toHaveLength(69); // 70 with the cut space dropped
      expect(all(file.xml, 'PstCd')).toEqual(['D02 XY45 EXTRA L']);
      expect(all(file.xml, 'TwnNm')[0]).toHaveLength(34);
    } else {
      expect(all(file.xml, 'AdrLine').map((line) => line.length)).toEqual([69, 70]);
    }
    await expectValid(file.xml, version);
  });

  it('validates without any BIC: the debtor agent NOTPROVIDED, no creditor agent', async () => {
    const file = buildCreditTransferFile(
      input({
        version,
        debtor: { name: 'Challenge Platform B.V.', iban: 'NL91ABNA0417164300' },
        payments: [
          payout(1, { creditor: { name: 'A', iban: 'BE68539007547034' } }),
          payout(2, { creditor: { name: 'B', iban: 'GB29NWBK60161331926819', bic: '' } }),
        ],
      }),
    );
    expect(file.xml).toMatch(/<DbtrAgt>\s*<FinInstnId>\s*<Othr>\s*<Id>NOTPROVIDED<\/Id>/);
    expect(file.xml).not.toContain('<CdtrAgt>');
    await expectValid(file.xml, version);
  });
});

describe('the address', () => {
  const withAddress = (version: PainVersion) =>
    buildCreditTransferFile(
      input({
        version,
        payments: [
          payout(1, {
            creditor: {
              name: 'Jan Jansen',
              iban: 'NL91ABNA0417164300',
              address: {
                street: 'Damrak 1',
                postalCode: '1012 LG',
                city: 'Amsterdam',
                countryCode: 'NL',
              },
            },
          }),
        ],
      }),
    ).xml;

  it('is structured in pain.001.001.09', () => {
    expect(withAddress('pain.001.001.09')).toMatch(
      /<PstlAdr>\s*<StrtNm>Damrak 1<\/StrtNm>\s*<PstCd>1012 LG<\/PstCd>\s*<TwnNm>Amsterdam<\/TwnNm>\s*<Ctry>NL<\/Ctry>\s*<\/PstlAdr>/,
    );
  });

  it('is two address lines in pain.001.001.03', () => {
    expect(withAddress('pain.001.001.03')).toMatch(
      /<PstlAdr>\s*<Ctry>NL<\/Ctry>\s*<AdrLine>Damrak 1<\/AdrLine>\s*<AdrLine>1012 LG Amsterdam<\/AdrLine>\s*<\/PstlAdr>/,
    );
  });
});

it('defaults to pain.001.001.09', () => {
  expect(buildCreditTransferFile(input()).xml).toContain('tech:xsd:pain.001.001.09"');
});

it('writes the creation time in UTC without milliseconds and the execution date as a date', () => {
  const xml = buildCreditTransferFile(input()).xml;
  expect(all(xml, 'CreDtTm')).toEqual(['2026-01-15T10:30:00Z']);
  expect(all(xml, 'Dt')).toEqual(['2026-01-16']);
});

describe('refusals (invalid_input)', () => {
  it('an empty payment list', () => {
    expect(refusal(() => buildCreditTransferFile(input({ payments: [] })))).toBe(
      'There are no open payouts to export.',
    );
  });

  it.each([0, -100, 12.5, Number.NaN, Number.POSITIVE_INFINITY, 100_000_000_000, 2 ** 53])(
    'the amount %s',
    (amountCents) => {
      const run = () => buildCreditTransferFile(input({ payments: [payout(1, { amountCents })] }));
      expect(refusal(run)).toMatch(/PAYOUT-1: the amount must be a whole number of cents/);
    },
  );

  it('a duplicate end-to-end id', () => {
    const run = () =>
      buildCreditTransferFile(input({ payments: [payout(1), payout(2), payout(1)] }));
    expect(refusal(run)).toBe('Payment PAYOUT-1 appears twice in the file.');
  });

  it.each([
    ['a wrong checksum', 'DE89370400440532013001', /PAYOUT-2: .*check digits/],
    ['a wrong length', 'NL91ABNA041716430', /PAYOUT-2: .*NL has 18 characters/],
    ['a non-European country', 'BR1800360305000010009795493C1', /PAYOUT-2: .*Europe only/],
  ])('a creditor IBAN with %s', (_why, iban, message) => {
    const payments = [payout(1), payout(2, { creditor: { name: 'X', iban } })];
    expect(refusal(() => buildCreditTransferFile(input({ payments })))).toMatch(message);
  });

  it('a bad debtor IBAN', () => {
    const debtor = { name: 'Challenge', iban: 'NL91ABNA0417164301' };
    expect(refusal(() => buildCreditTransferFile(input({ debtor })))).toMatch(/^Debtor IBAN: /);
  });

  it('a bad BIC, or one from another country than its IBAN', () => {
    const bad = (bic: string) => () =>
      buildCreditTransferFile(
        input({
          payments: [payout(1, { creditor: { name: 'X', iban: 'NL91ABNA0417164300', bic } })],
        }),
      );
    expect(refusal(bad('ABNANL2'))).toMatch(/PAYOUT-1: The BIC must have 8 or 11 characters/);
    expect(refusal(bad('COBADEFF'))).toMatch(/PAYOUT-1: The BIC is from DE but the IBAN from NL/);
  });

  it.each(['', 'x'.repeat(36), 'payé-1', '/PAYOUT', 'A//B'])('the end-to-end id %j', (id) => {
    const run = () => buildCreditTransferFile(input({ payments: [payout(1, { endToEndId: id })] }));
    expect(refusal(run)).toMatch(/end-to-end id must be 1 to 35 SEPA characters/);
  });

  it.each(['', 'x'.repeat(36), 'Auszahlung März'])('the message id %j', (messageId) => {
    expect(refusal(() => buildCreditTransferFile(input({ messageId })))).toMatch(/message id/);
  });

  it('a name with no character left in the SEPA set', () => {
    const payments = [payout(1, { creditor: { name: '山田太郎 🎉', iban: 'NL91ABNA0417164300' } })];
    expect(refusal(() => buildCreditTransferFile(input({ payments })))).toMatch(
      /PAYOUT-1: The creditor name has no characters usable/,
    );
  });

  it('an address country that does not exist, and an invalid date', () => {
    const address = { city: 'Nowhere', countryCode: 'QQ' };
    const payments = [payout(1, { creditor: { name: 'X', iban: 'NL91ABNA0417164300', address } })];
    expect(refusal(() => buildCreditTransferFile(input({ payments })))).toMatch(/QQ/);
    const requestedExecutionDate = new Date('not a date');
    expect(refusal(() => buildCreditTransferFile(input({ requestedExecutionDate })))).toMatch(
      /requested execution date is not a date/,
    );
  });
});

describe('the validation bites', () => {
  const xml09 = buildCreditTransferFile(input()).xml;
  const xml03 = buildCreditTransferFile(input({ version: 'pain.001.001.03' })).xml;

  it('pain.001.001.09 refuses an amount with three decimals', async () => {
    const broken = xml09.replace('>10.34</InstdAmt>', '>10.345</InstdAmt>');
    expect(broken).not.toBe(xml09);
    const result = await validate('pain.001.001.09', broken);
    expect(result.valid).toBe(false);
    expect(result.rawOutput).toMatch(/InstdAmt.*fractionDigits/);
  });

  it('the generic pain.001.001.03 accepts three decimals: only our formatting prevents them', async () => {
    const broken = xml03.replace('>10.34</InstdAmt>', '>10.345</InstdAmt>');
    expect((await validate('pain.001.001.03', broken)).valid).toBe(true);
  });

  it.each(VERSIONS)('%s refuses a wrong NbOfTxs and a missing payment id', async (version) => {
    const xml = version === 'pain.001.001.09' ? xml09 : xml03;
    const wrongCount = xml.replace('<NbOfTxs>3</NbOfTxs>', '<NbOfTxs>three</NbOfTxs>');
    const noPaymentId = xml.replace(/<PmtId>[\s\S]*?<\/PmtId>/, '');
    const result = await validate(version, wrongCount, noPaymentId);
    expect(result.valid).toBe(false);
    expect(result.rawOutput).toContain('file-0.xml fails to validate');
    expect(result.rawOutput).toContain('file-1.xml fails to validate');
  });

  it('pain.001.001.09 refuses a creditor agent without BIC', async () => {
    const broken = xml09.replace('<BICFI>COBADEFFXXX</BICFI>', '<Othr><Id>NOTPROVIDED</Id></Othr>');
    expect((await validate('pain.001.001.09', broken)).valid).toBe(false);
  });
});

describe('property: random batches of payouts', () => {
  it('sum exactly in integer cents and always validate against both schemas', async () => {
    const payment = fc.record({
      amountCents: fc.integer({ min: 1, max: 99_999_999_999 }),
      name: fc.string({ unit: 'binary', maxLength: 100 }),
      remittance: fc.string({ unit: 'binary', maxLength: 200 }),
    });
    const files: Record<PainVersion, string[]> = { 'pain.001.001.09': [], 'pain.001.001.03': [] };
    fc.assert(
      fc.property(fc.array(payment, { minLength: 1, maxLength: 30 }), (batch) => {
        const payments = batch.map((p, i) =>
          payout(i, {
            amountCents: p.amountCents,
            creditor: { name: `N${p.name}`, iban: 'DE89370400440532013000' },
            remittanceInformation: p.remittance,
          }),
        );
        const sum = batch.reduce((total, p) => total + BigInt(p.amountCents), 0n);
        for (const version of VERSIONS) {
          const file = buildCreditTransferFile(input({ version, payments }));
          expect(BigInt(file.controlSumCents)).toBe(sum);
          expect(all(file.xml, 'CtrlSum')).toEqual([formatCents(sum), formatCents(sum)]);
          expect(all(file.xml, 'NbOfTxs')).toEqual([String(batch.length), String(batch.length)]);
          const parsed = all(file.xml, 'InstdAmt').map((a) => BigInt(a.replace('.', '')));
          expect(parsed.reduce((a, b) => a + b, 0n)).toBe(sum);
          files[version].push(file.xml);
        }
      }),
      { numRuns: 50 },
    );
    // One xmllint call per version for all 50 files (a call costs about 0.4 s).
    for (const version of VERSIONS) {
      const result = await validate(version, ...files[version]);
      const failed = result.errors.map((e) => e.loc?.fileName);
      expect(result.valid, `${version}: ${result.rawOutput}\nfailed: ${failed.join(', ')}`).toBe(
        true,
      );
      expect(files[version]).toHaveLength(50);
    }
  });
});
