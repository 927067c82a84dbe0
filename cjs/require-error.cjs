"use strict";
// ramem ships ES modules only. package.json's "exports" sends require() here
// only on a Node.js whose require() cannot load ES modules (before 20.19 and
// 22.12): there the alternative is Node's own "No exports main defined",
// which says nothing about what to do. Newer Node.js takes the "module-sync"
// condition first and loads the ES module itself.
const err = new Error(
  'ramem is an ES module package and this Node.js (' + process.version + ') cannot require() ES modules: ' +
    'use import { openMemory } from "ramem" in an ES module, or const { openMemory } = await import("ramem") from CommonJS ' +
    '(the same for ramem/server, ramem/ai-sdk, ramem/langchain, ramem/mem0, ramem/langgraph); ' +
    "Node.js >= 20.19 or >= 22.12 can require() it directly. See ramem's README.md › Installing it as a dependency.",
);
err.code = "RAMEM_ESM_ONLY";
throw err;
