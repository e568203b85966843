// zod for src/: `import { z } from '…/core/zod.js'` instead of from 'zod'. zod's own `z` namespace holds every export
// (some 200, with the JSON Schema reader, ISO formats and checks Kaigi never uses); the bundle built them all and made
// a getter for each in every execution. This namespace holds only what src/ uses (src/core/zod-names.ts), so esbuild
// leaves the rest of zod out of Code.js. A name src/ needs is added there.
export * as z from './zod-names.js';
