// UrlFetchApp's per-call limits as Google's quota table gives them, shared by the script side and the host.

// "URL Fetch URL length: 2 kB per URL". Counted in UTF-8 bytes against 2,048: the harsher of the readings of "2 kB".
export const MAX_URL_BYTES = 2048;
// "URL Fetch headers: 100 per call".
export const MAX_HEADERS = 100;
// "URL Fetch POST size: 50 MB per call" and "URL Fetch response size: 50 MB per call".
export const MAX_BODY_BYTES = 50 * 1024 * 1024;
