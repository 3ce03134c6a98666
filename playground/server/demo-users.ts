import type { ReferenceUser } from '../../lib/testing';

/** A demo user: the backend's configuration plus what the page and the console say about it. */
export interface DemoUser extends ReferenceUser {
  readonly label: string;
  readonly story: string;
}

/** The application key of the playground; the module sent is `generator_playground`. */
export const PLAYGROUND_APP_KEY = 'playground';

/**
 * One user per path through the billing priority, so every outcome is one
 * switch away in the page.
 */
export const DEMO_USERS: readonly DemoUser[] = [
  {
    token: 'demo-free',
    label: 'Fiona (free uses left)',
    story: '3 of 3 free uses, then 10 credits per use from a balance of 50',
    freeRemaining: 3,
    freeTotal: 3,
    creditsPerUse: 10,
    creditsBalance: 50,
  },
  {
    token: 'demo-credits',
    label: 'Carl (on credits)',
    story: 'no free use left, 10 credits per use from a balance of 100',
    freeRemaining: 0,
    freeTotal: 3,
    creditsPerUse: 10,
    creditsBalance: 100,
  },
  {
    token: 'demo-broke',
    label: 'Bea (too few credits)',
    story: 'no free use left, 10 credits per use, balance 5: every export is refused',
    freeRemaining: 0,
    freeTotal: 3,
    creditsPerUse: 10,
    creditsBalance: 5,
  },
  {
    token: 'demo-blacklisted',
    label: 'Mallory (blacklisted)',
    story: 'blacklisted: every export answers 20102 and charges nothing',
    freeRemaining: 2,
    freeTotal: 3,
    creditsPerUse: 10,
    creditsBalance: 50,
    blacklisted: true,
  },
];
