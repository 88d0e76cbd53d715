//! The client's profile and profile picture through the gateway.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::Mesh;

/// A real 1×1 PNG.
pub const PNG: &str = "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c49444154789c6338112002000310012d74fd67a70000000049454e44ae426082";

/// A real 16×16 JPEG (CPython's test image).
pub const JPEG: &str = "ffd8ffe000104a46494600010101000100010000ffdb004300030202020202030202020303030304060404040404080606050609080a0a090809090a0c0f0c0a0b0e0b09090d110d0e0f101011100a0c12131210130f101010ffdb00430103030304030408040408100b090b1010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010ffc00011080010001003012200021101031101ffc400160001010100000000000000000000000000070405ffc4002410000104010402020300000000000000000102030406050708121311220014093132ffc4001501010100000000000000000000000000000006ffc400231100010205030500000000000000000000010211030405062100123115166181e1ffda000c03010002110311003f0014a6d26a1b73c1e61312d4951cf31163e42565beba5aec694540b1e520b254a51fd2cab8faf220ab963d976c9335e69b77d7e66da71781a5571c7f1cea71e24b39d7e32253f21a69ded4714a38b482e84b892a71691ecd2d213bf1efb91a74aceea15a758ed548ac655b858b81857b21299867a96b94b949654fb9c88529114b812af07ad9f23c807e55be0df662a140cce8e69a3d5cb743b3d77a6558b1d9512188bf64b8d3f1c3680429c0d0febb3c02e03c5407b4bdd97b54e627fb6edf9460148262138db8529828370589727960e432896fc3828ea7528cea208dbe78191f07ad7fffd9";

const LIMIT: usize = 5_242_880;

pub fn bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
        .collect()
}

/// A PNG signature followed by padding up to `len` bytes.
fn png_of_len(len: usize) -> Vec<u8> {
    let mut picture = bytes(PNG);
    picture.resize(len, 0);
    picture
}

/// The pictures stored so far (temporary files excluded).
fn stored(mesh: &Mesh) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(&mesh.upload_dir)
        .expect("the upload directory exists")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

/// The name the URL points at, checked to be `<owner>-<random>` with `extension`.
fn stored_name(url: &Value, extension: &str) -> String {
    let url = url.as_str().expect("a profile_picture_url");
    let name = url.strip_prefix("/uploads/").expect("under /uploads/");
    let (stem, ext) = name.split_once('.').expect("an extension");
    assert_eq!(ext, extension, "{url}");
    let (owner, random) = stem.split_once('-').expect("owner-random");
    for part in [owner, random] {
        assert_eq!(part.len(), 32, "{url}");
        assert!(part.chars().all(|c| c.is_ascii_hexdigit()), "{url}");
    }
    name.to_owned()
}

/// Who else reads it: `matrix::a_clients_profile_is_read_by_them_their_booked_coaches_and_admins_and_by_no_one_else`.
#[tokio::test]
async fn a_client_creates_a_profile_and_reads_it() {
    let mesh = Mesh::start().await;
    let (client, me) = mesh.register("client").await;
    let path = format!("/client/profile/{}", me["user_id"].as_str().unwrap());

    let (status, body) = mesh.get(&path, Some(&client)).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert!(body["detail"].is_string());

    let (status, created) = mesh
        .post(
            "/client/profile",
            Some(&client),
            json!({"age": 15, "grade": "10", "sport": "basketball", "skill_level": "beginner", "profile_picture_url": ""}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(
        created,
        json!({"user_id": me["user_id"], "age": 15, "grade": "10", "sport": "basketball",
               "skill_level": "beginner", "profile_picture_url": null})
    );

    let (status, read) = mesh.get(&path, Some(&client)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(read, created);
}

#[tokio::test]
async fn empty_fields_are_stored_as_null() {
    let mesh = Mesh::start().await;
    let (client, _) = mesh.register("client").await;

    let (status, created) = mesh
        .post(
            "/client/profile",
            Some(&client),
            json!({"age": null, "grade": "", "sport": "", "skill_level": ""}),
        )
        .await;

    assert_eq!(status, StatusCode::CREATED, "{created}");
    for field in ["age", "grade", "sport", "skill_level", "profile_picture_url"] {
        assert_eq!(created[field], Value::Null, "{field}");
    }
}

#[tokio::test]
async fn a_second_create_is_a_conflict_and_the_profile_is_unchanged() {
    let mesh = Mesh::start().await;
    let (client, me) = mesh.register("client").await;
    let (_, first) = mesh
        .post("/client/profile", Some(&client), json!({"sport": "volleyball"}))
        .await;

    let (status, body) = mesh
        .post("/client/profile", Some(&client), json!({"sport": "basketball"}))
        .await;

    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(body["detail"].is_string());
    let (_, read) = mesh
        .get(
            &format!("/client/profile/{}", me["user_id"].as_str().unwrap()),
            Some(&client),
        )
        .await;
    assert_eq!(read, first);
}

#[tokio::test]
async fn put_changes_the_callers_own_profile_and_nobody_elses() {
    let mesh = Mesh::start().await;
    let (alice, alice_user) = mesh.register("client").await;
    let (bob, bob_user) = mesh.register("client").await;
    let (_, alice_before) = mesh
        .post(
            "/client/profile",
            Some(&alice),
            json!({"age": 12, "sport": "volleyball"}),
        )
        .await;
    mesh.post("/client/profile", Some(&bob), json!({"age": 30})).await;

    let (status, bob_after) = mesh
        .call(
            Method::PUT,
            "/client/profile",
            Some(&bob),
            Some(json!({"age": 31, "grade": "college", "skill_level": "advanced"})),
        )
        .await;

    assert_eq!(status, StatusCode::OK, "{bob_after}");
    assert_eq!(bob_after["user_id"], bob_user["user_id"]);
    assert_eq!(bob_after["age"], 31);
    assert_eq!(bob_after["skill_level"], "advanced");
    let (_, alice_now) = mesh
        .get(
            &format!("/client/profile/{}", alice_user["user_id"].as_str().unwrap()),
            Some(&alice),
        )
        .await;
    assert_eq!(alice_now, alice_before);
}

#[tokio::test]
async fn put_before_any_profile_is_a_404() {
    let mesh = Mesh::start().await;
    let (client, _) = mesh.register("client").await;

    let (status, body) = mesh
        .call(
            Method::PUT,
            "/client/profile",
            Some(&client),
            Some(json!({"age": 20})),
        )
        .await;

    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert!(body["detail"].is_string());
}

#[tokio::test]
async fn an_unknown_skill_level_is_refused_with_the_choices() {
    let mesh = Mesh::start().await;
    let (client, _) = mesh.register("client").await;

    let (status, body) = mesh
        .post(
            "/client/profile",
            Some(&client),
            json!({"skill_level": "legendary"}),
        )
        .await;

    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["detail"].as_str().unwrap().contains("beginner"));
}

#[tokio::test]
async fn a_png_and_a_jpeg_are_stored_under_random_names_with_their_bytes() {
    let mesh = Mesh::start().await;
    let (client, _) = mesh.register("client").await;

    for (hex, declared, extension) in [(PNG, "image/png", "png"), (JPEG, "image/jpeg", "jpg")] {
        let picture = bytes(hex);
        let (status, body) = mesh
            .upload_picture(
                &client,
                "file",
                picture.clone(),
                &format!("me.{extension}"),
                declared,
            )
            .await;

        assert_eq!(status, StatusCode::CREATED, "{body}");
        let name = stored_name(&body["profile_picture_url"], extension);
        assert_eq!(std::fs::read(mesh.upload_dir.join(&name)).unwrap(), picture);
    }
    // The JPEG replaced the PNG, which no profile showed.
    assert_eq!(stored(&mesh).len(), 1);
}

#[tokio::test]
async fn the_type_comes_from_the_bytes_not_from_the_name_or_the_declared_type() {
    let mesh = Mesh::start().await;
    let (client, _) = mesh.register("client").await;

    let (status, body) = mesh
        .upload_picture(
            &client,
            "file",
            bytes(JPEG),
            "../../../etc/cron.d/evil.html",
            "text/html",
        )
        .await;

    assert_eq!(status, StatusCode::CREATED, "{body}");
    let name = stored_name(&body["profile_picture_url"], "jpg");
    assert_eq!(stored(&mesh), vec![name]);
}

#[tokio::test]
async fn a_text_file_named_png_is_refused_and_nothing_is_stored() {
    let mesh = Mesh::start().await;
    let (client, _) = mesh.register("client").await;

    for text in [&b"just some text"[..], b"<svg onload=alert(1)>", b""] {
        let (status, body) = mesh
            .upload_picture(&client, "file", text.to_vec(), "photo.png", "image/png")
            .await;

        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{body}");
        assert_eq!(body["detail"], "Please select an image file");
    }
    assert!(stored(&mesh).is_empty());
}

#[tokio::test]
async fn five_megabytes_are_accepted_and_one_byte_more_is_refused() {
    let mesh = Mesh::start().await;
    let (client, _) = mesh.register("client").await;

    let (status, body) = mesh
        .upload_picture(&client, "file", png_of_len(LIMIT), "big.png", "image/png")
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");

    let (status, body) = mesh
        .upload_picture(&client, "file", png_of_len(LIMIT + 1), "bigger.png", "image/png")
        .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
    assert_eq!(body["detail"], "Image size must be less than 5MB");
    assert_eq!(stored(&mesh).len(), 1);
}

#[tokio::test]
async fn a_body_far_over_the_limit_is_refused_with_the_same_message() {
    let mesh = Mesh::start().await;
    let (client, _) = mesh.register("client").await;

    let (status, body) = mesh
        .upload_picture(
            &client,
            "file",
            png_of_len(8 * 1024 * 1024),
            "huge.png",
            "image/png",
        )
        .await;

    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
    assert_eq!(body["detail"], "Image size must be less than 5MB");
    assert!(stored(&mesh).is_empty());
}

#[tokio::test]
async fn a_form_without_the_field_file_is_a_400() {
    let mesh = Mesh::start().await;
    let (client, _) = mesh.register("client").await;

    let (status, body) = mesh
        .upload_picture(&client, "picture", bytes(PNG), "me.png", "image/png")
        .await;

    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["detail"].as_str().unwrap().contains("file"));
    assert!(stored(&mesh).is_empty());
}

#[tokio::test]
async fn a_form_with_a_field_besides_file_or_two_files_is_a_400_naming_it() {
    let mesh = Mesh::start().await;
    let (client, _) = mesh.register("client").await;
    let picture = || {
        reqwest::multipart::Part::bytes(bytes(PNG))
            .file_name("me.png")
            .mime_str("image/png")
            .unwrap()
    };
    // Another field before the picture, after it, or the picture twice.
    let forms = [
        (
            reqwest::multipart::Form::new()
                .text("caption", "beach")
                .part("file", picture()),
            "caption",
        ),
        (
            reqwest::multipart::Form::new()
                .part("file", picture())
                .text("caption", "beach"),
            "caption",
        ),
        (
            reqwest::multipart::Form::new()
                .part("file", picture())
                .part("file", picture()),
            "file",
        ),
    ];

    for (form, named) in forms {
        let answer = reqwest::Client::new()
            .post(mesh.url("/client/upload-profile-picture"))
            .bearer_auth(&client)
            .multipart(form)
            .send()
            .await
            .expect("the gateway answers");

        assert_eq!(answer.status(), StatusCode::BAD_REQUEST);
        let body: Value = answer.json().await.expect("a JSON error");
        assert!(body["detail"].as_str().unwrap().contains(named), "{body}");
    }
    assert!(stored(&mesh).is_empty());
}

#[tokio::test]
async fn a_picture_sent_as_anything_but_a_form_is_a_415() {
    let mesh = Mesh::start().await;
    let (client, _) = mesh.register("client").await;

    let answer = mesh
        .raw(
            Method::POST,
            "/client/upload-profile-picture",
            Some(&client),
            Some("image/png"),
            bytes(PNG),
        )
        .await;

    assert_eq!(answer.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert!(answer.body["detail"].is_string());
}

#[tokio::test]
async fn an_uploaded_picture_is_saved_in_the_profile() {
    let mesh = Mesh::start().await;
    let (client, me) = mesh.register("client").await;
    let (_, uploaded) = mesh
        .upload_picture(&client, "file", bytes(PNG), "me.png", "image/png")
        .await;

    let (status, created) = mesh
        .post(
            "/client/profile",
            Some(&client),
            json!({"profile_picture_url": uploaded["profile_picture_url"]}),
        )
        .await;

    assert_eq!(status, StatusCode::CREATED, "{created}");
    let (_, read) = mesh
        .get(
            &format!("/client/profile/{}", me["user_id"].as_str().unwrap()),
            Some(&client),
        )
        .await;
    assert_eq!(read["profile_picture_url"], uploaded["profile_picture_url"]);
}

#[tokio::test]
async fn a_picture_url_pointing_elsewhere_is_refused() {
    let mesh = Mesh::start().await;
    let (client, _) = mesh.register("client").await;

    for url in [
        "https://evil.example/x.png",
        "/uploads/../etc/passwd",
        "javascript:alert(1)",
    ] {
        let (status, body) = mesh
            .post(
                "/client/profile",
                Some(&client),
                json!({"profile_picture_url": url}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{url}: {body}");
        assert!(body["detail"].is_string());
    }
}
