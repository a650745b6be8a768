export interface CaptchaVerifier {
  /** True when the payload proves a solved, unexpired, never-before-used challenge. */
  verify(payload: string, remoteIp: string): Promise<boolean>;
}
