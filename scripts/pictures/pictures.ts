import { decide } from './sources/decide';
import { externalId } from './sources/external-id';
import { freePeriod } from './sources/free-period';
import { ssr } from './sources/ssr';
import { threeCalls } from './sources/three-calls';
import type { Picture } from './svg';

/** The docs' pictures, each drawn into docs/pictures/<name>.svg by scripts/pictures/main.ts. */
export const PICTURES: readonly Picture[] = [decide, freePeriod, threeCalls, ssr, externalId];
