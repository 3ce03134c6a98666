/**
 * `from − amount`, for credit amounts, without float noise: the
 * difference rounded to the larger count of decimals of `from` and `amount`
 * as JavaScript writes them (0.3 − 0.1 is 0.2, not 0.19999999999999998),
 * which is the exact decimal difference whenever the operands are the decimals
 * they are written as. An operand with more than 20 decimals (no backend's
 * amount) keeps the float difference. The one rule for every subtraction of
 * amounts: the cached balance, `preview()`, the elements, the reference backend.
 */
export function subtractAmount(from: number, amount: number): number {
  const difference = from - amount;
  // The fewest decimals that write both operands exactly. A difference rounded to zero from below is -0,
  // which prints as 0 and is no less than 0.
  for (let decimals = 0; decimals <= 20; decimals++) {
    if (+from.toFixed(decimals) === from && +amount.toFixed(decimals) === amount) return +difference.toFixed(decimals);
  }
  return difference;
}
