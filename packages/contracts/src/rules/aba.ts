const NINE_DIGITS = /^\d{9}$/;
const CHECK_WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const;

/**
 * True for a routing number a consumer account can have: exactly nine digits, a first-two-digit prefix the
 * Federal Reserve assigns to depository institutions, and a valid ABA check digit
 * (3·d1 + 7·d2 + d3 + 3·d4 + 7·d5 + d6 + 3·d7 + 7·d8 + d9 ≡ 0 mod 10).
 *
 * The check digit alone accepts 000000000 and other numbers no bank has; the prefix rule keeps 01–12 (banks),
 * 21–32 (thrifts) and 61–72 (electronic transactions), which covers every entry of the FedACH directory.
 */
export function isValidRoutingNumber(value: string): boolean {
  if (!NINE_DIGITS.test(value)) return false;
  const prefix = Number(value.slice(0, 2));
  const assigned =
    (prefix >= 1 && prefix <= 12) || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72);
  if (!assigned) return false;
  let sum = 0;
  CHECK_WEIGHTS.forEach((weight, i) => {
    sum += weight * Number(value[i]);
  });
  return sum % 10 === 0;
}
