/** Upload tickets (`GET oss`) and the upload itself (DOMAIN.md §3 "Uploads"). */
import { Type } from '@sinclair/typebox';
import { Ok } from '../../http/schemas';

export const OssTicket = Type.Object({
  uploadUrl: Type.String({ description: 'PUT the file here (the raw bytes as the body), once, before expiresAt' }),
  key: Type.String({ description: 'where the stored image will be, e.g. img/2026/11/24/….webp' }),
  publicUrl: Type.String({ description: 'the address of the stored image once uploaded' }),
  expiresAt: Type.Integer({ description: 'ms since the epoch' }),
  maxSize: Type.Integer({ description: 'bytes' }),
  accept: Type.String({ description: 'the accepted types, as an <input accept> value' }),
});
export const OssTicketResult = Ok(OssTicket);

export const UploadParams = Type.Object({
  token: Type.String({ title: '上传凭证', maxLength: 100 }),
});

export const UploadedImage = Type.Object({
  key: Type.String(),
  url: Type.String({ description: 'the image, normalised (WebP, metadata removed)' }),
  thumbUrl: Type.String({ description: 'a thumbnail for lists (at most 320 × 320)' }),
  width: Type.Integer(),
  height: Type.Integer(),
  size: Type.Integer({ description: 'bytes stored' }),
  type: Type.String(),
});
export const UploadResult = Ok(UploadedImage);
