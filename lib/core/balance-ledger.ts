import type { BalanceLedger } from './state';

/** A balance answer: it replaces an older one and every charge it already includes. */
export function answered(ledger: BalanceLedger, seq: number, balance: number): BalanceLedger {
  if (ledger.balance !== null && seq < ledger.seq) return ledger;
  return { balance, seq, debits: ledger.debits.filter((debit) => debit > seq) };
}

/** A credit charge: counted unless a balance answer newer than it already includes it. */
export function debited(ledger: BalanceLedger, seq: number): BalanceLedger {
  if (seq < ledger.seq || ledger.debits.includes(seq)) return ledger;
  return { ...ledger, debits: [...ledger.debits, seq] };
}

/** The balance to cache: the newest answer lowered by the price per newer charge, never below 0. */
export function balanceOf(ledger: BalanceLedger, creditsPerUse: number): number {
  return Math.max(0, (ledger.balance ?? 0) - ledger.debits.length * creditsPerUse);
}

/** The sequence number of the newest answer the ledger holds, a charge included. */
export function newestLedgerSeq(ledger: BalanceLedger): number {
  return Math.max(ledger.seq, ...ledger.debits);
}
