// Every web route Kaigi answers: adding one is a module in this folder plus one line here.
import type { Route } from './route.js';
import { getStatus } from './status.js';

export const ROUTES: readonly Route[] = [getStatus];
