// The build starts from an empty dist/, so no file of an older layout (a moved or deleted module) is packed.
import { rmSync } from "node:fs";
rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
