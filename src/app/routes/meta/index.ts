// Operations about the API itself: its OpenAPI document.
import type { Operation } from '../route.js';
import { getOpenApi } from './openapi.js';

export const META_OPERATIONS: readonly Operation[] = [getOpenApi];
