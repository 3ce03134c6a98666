import type { BillingModule, BillingStatus, UsageInfo } from '../index';
import { subtractAmount } from '../shared/subtract-amount';
import { boundElement, loadOnce, safely, type BoundElementClass } from './bound-element';
import { METER_HTML } from './meter-template';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * What changed between two usages that a screen reader user should hear: a
 * charge, a top-up, the free period's start and end. Nothing else (the
 * countdown's seconds are never announced); `''` when nothing of that.
 */
export function announcement(before: UsageInfo | null, after: UsageInfo, unit: string): string {
  if (before === null) return '';
  const said: string[] = [];
  const credits = subtractAmount(after.creditsBalance, before.creditsBalance);
  if (after.freeRemaining < before.freeRemaining) said.push(`${plural(after.freeRemaining, `free ${unit}`)} left.`);
  if (credits < 0) said.push(`${plural(-credits, 'credit')} charged, ${after.creditsBalance} left.`);
  if (credits > 0) said.push(`Topped up: ${plural(after.creditsBalance, 'credit')}.`);
  if (after.inFreePeriod && !before.inFreePeriod) said.push(`Free for ${after.freePeriodRemaining} s.`);
  if (!after.inFreePeriod && before.inFreePeriod) said.push('Free period over.');
  return said.join(' ');
}

/**
 * The `<billing-meter>` class: free uses left of the total, the credits
 * balance, the next consume's cost (`preview()`) and the free-period
 * countdown; a skeleton until the first usage, a retry button when that
 * failed. Its `unit` attribute names what is metered ("export": "2 of 3 free
 * exports left"), "use" by default.
 */
export function meterClass(): BoundElementClass {
  return class BillingMeter extends boundElement(watchMeter) {
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open' });
      root.innerHTML = METER_HTML;
      root
        .querySelector('button')
        ?.addEventListener('click', () => void this.billing?.getUsage().catch(() => undefined));
    }
  };
}

function watchMeter(host: HTMLElement, billing: BillingModule): Array<() => void> {
  const root = host.shadowRoot as ShadowRoot;
  const part = (name: string) => root.querySelector(`[part=${name}]`) as HTMLElement;
  const unit = () => host.getAttribute('unit') || 'use';
  let status: BillingStatus | undefined;
  let usage: UsageInfo | null = null;
  let seconds = 0;

  const render = () => {
    const preview = safely(billing.preview);
    const state = !status?.loaded
      ? status?.error && !status.loading
        ? 'error'
        : 'loading'
      : preview?.canProceed === false
        ? 'empty'
        : 'ready';
    part('meter').setAttribute('s', state);
    host.setAttribute('data-state', state);
    // Before the first usage nothing below shows (the skeleton does): never "0 left".
    if (!usage || !preview) return;
    part('free').textContent = `${usage.freeRemaining} of ${plural(usage.freeTotal, `free ${unit()}`)} left`;
    part('credits').textContent = plural(usage.creditsBalance, 'credit');
    part('cost').textContent = preview.cost
      ? `Next ${unit()} costs ${plural(preview.cost, 'credit')}`
      : `Next ${unit()} is free`;
    part('period').textContent = `Free for ${seconds} s`;
    part('period').hidden = seconds === 0;
  };

  const subscriptions = [
    billing.status$.subscribe((next) => {
      status = next;
      render();
    }),
    billing.usage$.subscribe((next) => {
      const said = announcement(usage, next, unit());
      if (said) part('announcer').textContent = said;
      usage = next;
      render();
    }),
    // The countdown is on screen only: its seconds go to no live region.
    billing.freePeriodRemaining$.subscribe((next) => {
      seconds = next;
      render();
    }),
  ];
  loadOnce(billing);
  return [
    () => {
      subscriptions.forEach((subscription) => subscription.unsubscribe());
      part('announcer').textContent = '';
    },
  ];
}
