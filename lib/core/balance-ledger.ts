import type { BalanceLedger } from './state';

/** A balance answer: it replaces an older one and every charge it already includes. */
export function withBalanceAnswer(ledger: BalanceLedger, seq: number, balance: number): BalanceLedger {
  return ledger.balance !== null && seq < ledger.seq
    ? ledger
    : { balance, seq, debits: ledger.debits.filter((debit) => debit > seq) };
}

/** A credit charge: counted unless a balance answer newer than it already includes it. */
export function withCharge(ledger: BalanceLedger, seq: number): BalanceLedger {
  return seq < ledger.seq || ledger.debits.includes(seq) ? ledger : { ...ledger, debits: [...ledger.debits, seq] };
}
