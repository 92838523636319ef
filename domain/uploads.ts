/**
 * Image uploads (DOMAIN.md §3 "Uploads"), shared by the server that checks a file and the console that
 * checks it first: the accepted types and every refusal's Chinese wording.
 */
export const UPLOAD_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

/** A byte count as an operator reads a size limit: "5 MB", "64 KB" (display only). */
export function formatBytes(bytes: number): string {
  const mib = 1024 * 1024;
  if (bytes < mib) return `${Math.ceil(bytes / 1024)} KB`;
  const tenths = Math.round((bytes * 10) / mib);
  return `${tenths % 10 === 0 ? tenths / 10 : `${Math.floor(tenths / 10)}.${tenths % 10}`} MB`;
}

export const UploadMessages = {
  badTicket: '上传凭证无效，请重新选择文件上传',
  usedTicket: '上传凭证已使用，请重新选择文件上传',
  expiredTicket: '上传凭证已过期，请重新选择文件上传',
  tooLarge: (max: number) => `文件超过 ${formatBytes(max)} 上限，请压缩后再上传`,
  empty: '文件为空',
  notImage: '文件不是支持的图片格式（PNG、JPEG、GIF、WebP）',
  mismatch: (content: string, declared: string) => `文件内容（${content}）与文件类型（${declared}）不符`,
  broken: '图片已损坏或无法识别',
  tooManyPixels: '图片尺寸过大（宽高不超过 10000 像素，所有帧合计不超过 4000 万像素）',
} as const;
