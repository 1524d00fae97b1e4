import { createContext, useContext } from "react";

/**
 * The script nonce of the request being rendered (app/entry.server.tsx provides it). In the
 * browser it is empty: the scripts already ran, and browsers hide a nonce from the DOM anyway.
 */
export const NonceContext = createContext("");

export const useNonce = () => useContext(NonceContext);
