/** Test helper: `node --import tsx src/cli/testing/run-main.ts ARGS…` runs the CLI from source in a real process. */
import { main } from '../main.js';

process.exitCode = await main(process.argv);
