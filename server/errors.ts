/** Errors a service throws on purpose; the error plugin turns them into the envelope with their code. */
import { Code, Messages } from '../domain/codes';

export class AppError extends Error {
  constructor(
    public readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badInput = (msg: string) => new AppError(Code.badInput, msg);
export const conflict = (msg: string) => new AppError(Code.conflict, msg);
export const notFound = (msg: string) => new AppError(Code.notFound, msg);
export const forbidden = (msg: string = Messages.forbidden) => new AppError(Code.forbidden, msg);
