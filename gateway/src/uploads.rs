//! Profile pictures: read the one multipart field `file` of at most [`MAX_PICTURE_BYTES`], decide
//! its type by its first bytes (never by the declared type or the file name), and write it to the
//! upload directory under a random name nginx serves from `/uploads/`.
//!
//! Nothing the client sends reaches the file system but the bytes themselves: the name is the
//! owner's id and a fresh UUID (`<owner>-<random>.<ext>`), the extension from the detected type.
//!
//! One stored picture per person: the owner part of the name lets [`remove_pictures_of`] find a
//! person's files without an index. A new upload removes the person's earlier uploads except the
//! one their saved profile shows; saving the profile removes every other one (the replaced
//! picture); deleting the user removes them all. So a person keeps one picture at rest, two only
//! between an upload and the save that uses it.

use std::path::Path;

use axum::{
    extract::{Multipart, multipart::MultipartError},
    http::StatusCode,
};
use tokio::io::AsyncWriteExt;
use uuid::Uuid;

use crate::error::ApiError;

/// The largest picture accepted: 5 MB, as SPEC.md says.
pub const MAX_PICTURE_BYTES: usize = 5_242_880;

/// The body limit of the upload route: the picture plus room for the multipart framing.
pub const BODY_LIMIT: usize = 6 * 1024 * 1024;

const TOO_LARGE: &str = "Image size must be less than 5MB";
const NOT_AN_IMAGE: &str = "Please select an image file";
const FIELD: &str = "file";

/// An image type recognised by its magic number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageType {
    Png,
    Jpeg,
    Gif,
    Webp,
}

impl ImageType {
    /// The type of `bytes` by their signature, if they are one of the accepted images.
    pub fn sniff(bytes: &[u8]) -> Option<Self> {
        match bytes {
            [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, ..] => Some(Self::Png),
            [0xFF, 0xD8, 0xFF, ..] => Some(Self::Jpeg),
            [b'G', b'I', b'F', b'8', b'7' | b'9', b'a', ..] => Some(Self::Gif),
            [b'R', b'I', b'F', b'F', _, _, _, _, b'W', b'E', b'B', b'P', ..] => Some(Self::Webp),
            _ => None,
        }
    }

    /// The file extension nginx maps back to this type's content type.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Png => "png",
            Self::Jpeg => "jpg",
            Self::Gif => "gif",
            Self::Webp => "webp",
        }
    }
}

/// Reads the form (one field, `file`, and no other), checks the picture and, once `admit` lets it
/// in (the daily limit), stores it in `dir` as `owner`'s; returns the stored file's name. Nothing
/// is stored unless the whole form is right.
pub async fn store_profile_picture(
    dir: &Path,
    owner: Uuid,
    mut multipart: Multipart,
    admit: impl Future<Output = Result<(), ApiError>>,
) -> Result<String, ApiError> {
    let mut picture: Option<Vec<u8>> = None;
    while let Some(mut field) = multipart.next_field().await.map_err(form_error)? {
        // The form has one field (the document says so: no other part is allowed).
        if field.name() != Some(FIELD) || picture.is_some() {
            return Err(ApiError::bad_request(format!(
                "The upload form takes one field, file, once; {:?} is one too many.",
                field.name().unwrap_or_default()
            )));
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = field.chunk().await.map_err(form_error)? {
            if bytes.len() + chunk.len() > MAX_PICTURE_BYTES {
                return Err(too_large());
            }
            bytes.extend_from_slice(&chunk);
        }
        picture = Some(bytes);
    }
    let bytes = picture.ok_or_else(|| {
        ApiError::bad_request("Choose a picture to upload: the form needs a field named file.")
    })?;
    let kind = ImageType::sniff(&bytes)
        .ok_or_else(|| ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, NOT_AN_IMAGE))?;
    admit.await?;
    write(dir, owner, kind, &bytes).await
}

/// The start of every stored name of `owner`'s pictures.
fn owner_prefix(owner: Uuid) -> String {
    format!("{}-", owner.simple())
}

/// The stored name a `/uploads/<name>` URL points at.
pub fn name_of(url: &str) -> Option<&str> {
    url.strip_prefix("/uploads/")
}

/// Removes `owner`'s stored pictures but those named in `keep`; at best effort (what cannot be
/// removed now is logged, and goes with the owner's next change).
pub async fn remove_pictures_of(dir: &Path, owner: Uuid, keep: &[&str]) {
    let prefix = owner_prefix(owner);
    let mut entries = match tokio::fs::read_dir(dir).await {
        Ok(entries) => entries,
        Err(error) => {
            tracing::warn!(%error, dir = %dir.display(), "old profile pictures not removed");
            return;
        }
    };
    loop {
        let entry = match entries.next_entry().await {
            Ok(Some(entry)) => entry,
            Ok(None) => return,
            Err(error) => {
                tracing::warn!(%error, "old profile pictures not all removed");
                return;
            }
        };
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.starts_with(&prefix)
            && !keep.contains(&name)
            && let Err(error) = tokio::fs::remove_file(entry.path()).await
        {
            tracing::warn!(%error, name, "an old profile picture was not removed");
        }
    }
}

/// Writes under a temporary name first, so a half-written file is never served.
async fn write(dir: &Path, owner: Uuid, kind: ImageType, bytes: &[u8]) -> Result<String, ApiError> {
    let name = format!(
        "{}{}.{}",
        owner_prefix(owner),
        Uuid::new_v4().simple(),
        kind.extension()
    );
    let partial = dir.join(format!(".{name}.part"));
    let result = async {
        let mut file = tokio::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&partial)
            .await?;
        file.write_all(bytes).await?;
        file.sync_all().await?;
        tokio::fs::rename(&partial, dir.join(&name)).await
    }
    .await;
    match result {
        Ok(()) => Ok(name),
        Err(e) => {
            let _ = tokio::fs::remove_file(&partial).await;
            Err(ApiError::internal(format_args!(
                "storing a profile picture in {}: {e}",
                dir.display()
            )))
        }
    }
}

fn too_large() -> ApiError {
    ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, TOO_LARGE)
}

/// A broken or oversized form is the client's doing: never a 5xx.
fn form_error(e: MultipartError) -> ApiError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        too_large()
    } else {
        ApiError::bad_request(format!("The upload form could not be read: {}", e.body_text()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_accepted_image_is_recognised_by_its_bytes() {
        let cases: [(&[u8], ImageType); 5] = [
            (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", ImageType::Png),
            (b"\xFF\xD8\xFF\xE0\0\x10JFIF", ImageType::Jpeg),
            (b"GIF87a\x01\0\x01\0", ImageType::Gif),
            (b"GIF89a\x01\0\x01\0", ImageType::Gif),
            (b"RIFF\x24\0\0\0WEBPVP8 ", ImageType::Webp),
        ];
        for (bytes, kind) in cases {
            assert_eq!(ImageType::sniff(bytes), Some(kind));
        }
    }

    #[test]
    fn text_html_and_truncated_signatures_are_not_images() {
        for bytes in [
            &b""[..],
            b"hello, world",
            b"<svg xmlns='http://www.w3.org/2000/svg'/>",
            b"<html><script>alert(1)</script>",
            b"\x89PNG",
            b"RIFF\x24\0\0\0WAVE",
            b"GIF88a",
        ] {
            assert_eq!(ImageType::sniff(bytes), None, "{bytes:?}");
        }
    }

    #[test]
    fn the_extension_follows_the_detected_type() {
        assert_eq!(ImageType::Jpeg.extension(), "jpg");
        assert_eq!(ImageType::Webp.extension(), "webp");
    }
}
