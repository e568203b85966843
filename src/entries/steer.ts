// Entry points the sidebar steers with: inbox, directives, prompt versions, learnings search, settings rows.
export {};
