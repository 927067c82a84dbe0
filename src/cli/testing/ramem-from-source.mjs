#!/usr/bin/env node
// The ramem bin run from source, in this very process: what a test links as
// node_modules/.bin/ramem to run `npx ramem ...` without a build.
import { register } from "tsx/esm/api";

register();
await import("../main.ts");
