import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of the page being rendered on the server, for the inline
 * scripts the document needs (Remix's context and hydration, Mantine's colour scheme). Empty in the
 * browser, where the scripts have already run.
 */
export const NonceContext = createContext<string | undefined>(undefined);
export const useNonce = () => useContext(NonceContext);
