/** The build's version label, shown in the top bar and reported by /api/public/test. */
export const APP_VERSION: string = __WUFF_VERSION__;
