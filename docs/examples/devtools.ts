// README "Redux DevTools: unified-billing/devtools", type-checked.
import { createClient } from '../../lib';
import { reduxDevtools } from '../../lib/devtools';

declare const baseUrl: string;

export const client = createClient({ baseUrl, appKey: 'poster', devtools: reduxDevtools() });
