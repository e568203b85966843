// Entry points for the Dashboard tab: refresh its data ranges and charts.
export {};
