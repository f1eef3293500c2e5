/** The GS1 modulo-10 check digit of a string of digits (weights 3 and 1 from the right). */
export function gs1CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * The UPC-A number a UPC-E number stands for (number system + six digits, no check digit): the
 * UPC-E check digit is the check digit of this expansion.
 */
export function expandUpcE(numberSystemAndSix: string): string {
  const ns = numberSystemAndSix[0]!;
  const [d1, d2, d3, d4, d5, d6] = numberSystemAndSix.slice(1);
  switch (d6) {
    case '0':
    case '1':
    case '2':
      return `${ns}${d1}${d2}${d6}0000${d3}${d4}${d5}`;
    case '3':
      return `${ns}${d1}${d2}${d3}00000${d4}${d5}`;
    case '4':
      return `${ns}${d1}${d2}${d3}${d4}00000${d5}`;
    default:
      return `${ns}${d1}${d2}${d3}${d4}${d5}0000${d6}`;
  }
}
