// docs/devtools.md "Redux DevTools: unified-billing/devtools", type-checked.
import { createClient } from 'unified-billing';
import { reduxDevtools } from 'unified-billing/devtools';

declare const baseUrl: string;

export const client = createClient({ baseUrl, appKey: 'poster', devtools: reduxDevtools() });
