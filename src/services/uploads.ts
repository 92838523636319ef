/**
 * Image uploads: a ticket from `GET oss` (RTK Query, so an expired session is handled like any call),
 * then the file's bytes PUT to the ticket's uploadUrl with XMLHttpRequest (fetch reports no upload
 * progress). The server checks the content, re-encodes and stores it; its answer names the image's URL.
 */
import { UploadMessages } from '../../domain/uploads';
import type { AppDispatch } from '../store';
import { API_BASE } from './http';
import { api, type UploadImageApiResponse } from './generated/oss';

export type UploadedImage = UploadImageApiResponse;

export const NOT_IMAGE = UploadMessages.notImage;

/** PUTs `file` to `url`; `onProgress` gets 0–100. Rejects with the server's Chinese message. */
export function putFile(url: string, file: Blob, onProgress?: (percent: number) => void): Promise<UploadedImage> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && onProgress) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onerror = () => reject(new Error('网络错误，上传失败'));
    xhr.onload = () => {
      try {
        const body = JSON.parse(xhr.responseText) as { code: number; msg: string; data: UploadedImage };
        if (body.code === 200) resolve(body.data);
        else reject(new Error(body.msg || '上传失败'));
      } catch {
        reject(new Error('上传失败'));
      }
    };
    xhr.send(file);
  });
}

/** Uploads one image: checks what the ticket allows first (type, size), then sends it. */
export async function uploadImage(
  dispatch: AppDispatch,
  file: File,
  onProgress?: (percent: number) => void,
): Promise<UploadedImage> {
  const ticket = await dispatch(
    api.endpoints.getOssTicket.initiate(undefined, { forceRefetch: true, subscribe: false }),
  ).unwrap();
  if (file.type && !ticket.accept.split(',').includes(file.type)) throw new Error(NOT_IMAGE);
  if (file.size > ticket.maxSize) throw new Error(UploadMessages.tooLarge(ticket.maxSize));
  // A relative uploadUrl is on the API's host (API_BASE when the console is served from elsewhere).
  return putFile(
    /^https?:\/\//.test(ticket.uploadUrl) ? ticket.uploadUrl : `${API_BASE}${ticket.uploadUrl}`,
    file,
    onProgress,
  );
}
