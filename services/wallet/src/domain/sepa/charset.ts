/**
 * The SEPA Latin character set (EPC guidance on the character set, also demanded by the EPC's
 * implementation guidelines): a-z A-Z 0-9 / - ? : ( ) . , ' + and space. Neither XSD encodes it
 * as a pattern, but banks refuse or mangle anything else, so every text is reduced to it here.
 */
const SEPA_TEXT = /^[A-Za-z0-9/\-?:().,'+ ]*$/;
const NOT_SEPA = /[^A-Za-z0-9/\-?:().,'+ ]/g;

/**
 * Letters that Unicode decomposition does not reduce to a Latin base letter, as "from=to" pairs
 * (lower case; upper case is derived). Cyrillic and Greek use a simple, language-neutral table:
 * the spec's country list includes BG, BY, GR, MK, RS, RU and UA.
 */
const LETTERS = new Map(
  [
    'ß=ss,æ=ae,œ=oe,ø=o,đ=d,ð=d,ł=l,þ=th,ı=i,ħ=h,ŧ=t,ŋ=n,ĸ=k,ſ=s',
    'а=a,б=b,в=v,г=g,ґ=g,д=d,ђ=dj,ѓ=gj,е=e,ё=e,є=ye,ж=zh,з=z,ѕ=dz,и=i,і=i,ї=yi,й=y,ј=j,к=k',
    'л=l,љ=lj,м=m,н=n,њ=nj,о=o,п=p,р=r,с=s,т=t,ћ=c,ќ=kj,у=u,ў=u,ф=f,х=kh,ц=ts,ч=ch,џ=dz,ш=sh',
    'щ=shch,ъ=,ы=y,ь=,э=e,ю=yu,я=ya',
    'α=a,ά=a,β=v,γ=g,δ=d,ε=e,έ=e,ζ=z,η=i,ή=i,θ=th,ι=i,ί=i,ϊ=i,ΐ=i,κ=k,λ=l,μ=m,ν=n,ξ=x,ο=o,ό=o',
    'π=p,ρ=r,σ=s,ς=s,τ=t,υ=y,ύ=y,ϋ=y,ΰ=y,φ=f,χ=ch,ψ=ps,ω=o,ώ=o',
    // Symbols with a SEPA equivalent: & becomes +, typographic apostrophes become '.
    "&=+,’=',‘=',ʼ=',`=',´='",
  ]
    .join(',')
    .split(',')
    .map((pair) => pair.split('=') as [string, string]),
);

const isUpper = (char = '') => char !== char.toLowerCase();

/** One character through the table; an upper-case source gives "Zh", or "ZH" amid capitals. */
function transliterate(chars: readonly string[], index: number): string {
  const char = chars[index] ?? '';
  const lower = char.toLowerCase();
  const mapped = LETTERS.get(lower);
  if (mapped === undefined || lower === char) return mapped ?? char;
  const [previous, next] = [chars[index - 1], chars[index + 1]];
  const amidCapitals = isUpper(next) || (!/\p{L}/u.test(next ?? '') && isUpper(previous));
  return amidCapitals ? mapped.toUpperCase() : mapped.charAt(0).toUpperCase() + mapped.slice(1);
}

/**
 * Text reduced to the SEPA character set: the letters above replaced, accents dropped (é -> e,
 * via compatibility decomposition, which also unfolds ligatures and full-width forms), anything
 * else (quotes, <, >, emoji, other scripts) turned into a space, spaces collapsed, then cut to
 * `maxLength`. May return an empty string: the caller decides whether that is acceptable.
 */
export function toSepaText(value: string, maxLength: number): string {
  // Greek "ου" is one sound, written ou; the table alone would give "oy".
  const greekOu = value
    .normalize('NFC')
    .replace(
      /([οΟ])([υύΥΎ])/g,
      (_, o: string, u: string) => o + (u === u.toLowerCase() ? 'u' : 'U'),
    );
  const chars = Array.from(greekOu);
  const replaced = chars.map((_, index) => transliterate(chars, index)).join('');
  return replaced
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(NOT_SEPA, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, maxLength)
    .trimEnd();
}

export function isSepaText(value: string): boolean {
  return SEPA_TEXT.test(value);
}

/**
 * A reference (message, payment information or end-to-end id) as the EPC wants it: 1 to 35
 * characters of the SEPA set, no leading or trailing space or slash, no "//". References are
 * refused rather than rewritten: a changed reference could no longer be reconciled.
 */
export function isSepaReference(value: string): boolean {
  return (
    value.length >= 1 &&
    value.length <= 35 &&
    isSepaText(value) &&
    value.trim() === value &&
    !value.startsWith('/') &&
    !value.endsWith('/') &&
    !value.includes('//')
  );
}
