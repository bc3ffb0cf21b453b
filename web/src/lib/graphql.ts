/** The envelope every API result carries (product spec, section 3). */
export interface ResponseStatus {
  success: boolean;
  identifier: string | null;
  message: string | null;
}
