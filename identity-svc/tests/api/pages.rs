//! The admin's user list in pages (`limit`, `after`), searched (`q`) and filtered (`role`) on the
//! server, with the count the counters keep; the statements a page and the stats cost.

use proto::identity::v1 as pb;
use tonic::Code;

use crate::helpers::{TestApp, authed, refused};

/// 300 users a second apart (the API would hash 300 passwords): coaches and clients by turns,
/// every tenth named Smith; the newest is "User 300".
async fn arrange_users(app: &TestApp, from: i32, to: i32) {
    sqlx::query(
        "insert into identity.app_user (user_id, email, password_hash, full_name, role, created_at)
         select gen_random_uuid(), 'user' || n || '@pages.test', 'not a hash',
                case when n % 10 = 0 then 'Pat Smith ' || n else 'User ' || n end,
                case when n % 2 = 0 then 'coach' else 'client' end,
                now() - interval '1 day' + n * interval '1 second'
         from generate_series($1::int, $2::int) as n",
    )
    .bind(from)
    .bind(to)
    .execute(&app.db)
    .await
    .expect("arrange users");
}

/// One page of the list.
async fn page(
    app: &TestApp,
    admin: &str,
    request: pb::ListUsersRequest,
) -> Result<pb::ListUsersResponse, tonic::Status> {
    let mut messages = app
        .client()
        .list_users(authed(request, admin))
        .await?
        .into_inner();
    let first = messages.message().await?.unwrap_or_default();
    assert!(messages.message().await?.is_none(), "a page is one message");
    Ok(first)
}

/// Every page of the list with these filters, `limit` at a time, following `next`.
async fn walk(app: &TestApp, admin: &str, limit: u32, q: &str, role: &str) -> Vec<Vec<pb::User>> {
    let mut pages = Vec::new();
    let mut after = String::new();
    loop {
        let request = pb::ListUsersRequest {
            limit,
            after: after.clone(),
            q: q.into(),
            role: role.into(),
        };
        let reply = page(app, admin, request).await.expect("a page");
        pages.push(reply.users);
        if reply.next.is_empty() {
            return pages;
        }
        after = reply.next;
        assert!(pages.len() < 100, "the pages never end");
    }
}

/// The whole list with these filters, streamed (no limit).
async fn whole(app: &TestApp, admin: &str, q: &str, role: &str) -> (Vec<pb::User>, Option<i64>) {
    let request = pb::ListUsersRequest {
        q: q.into(),
        role: role.into(),
        ..Default::default()
    };
    let mut messages = app
        .client()
        .list_users(authed(request, admin))
        .await
        .expect("list")
        .into_inner();
    let (mut users, mut total) = (Vec::new(), None);
    while let Some(message) = messages.message().await.expect("a message") {
        total = total.or(message.total);
        users.extend(message.users);
    }
    (users, total)
}

fn ids(users: &[pb::User]) -> Vec<&str> {
    users.iter().map(|u| u.user_id.as_str()).collect()
}

#[tokio::test]
async fn pages_are_disjoint_cover_the_whole_list_in_order_and_say_how_many() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    arrange_users(&app, 1, 300).await;
    let (all, total) = whole(&app, &admin, "", "").await;
    assert_eq!((all.len(), total), (301, Some(301)), "300 users and the admin");

    let pages = walk(&app, &admin, 40, "", "").await;

    let sizes: Vec<usize> = pages.iter().map(Vec::len).collect();
    assert_eq!(sizes, [40, 40, 40, 40, 40, 40, 40, 21]);
    assert_eq!(
        ids(&pages.concat()),
        ids(&all),
        "the pages are the whole list, in order"
    );
    let newest: Vec<&str> = pages[0][..3].iter().map(|u| u.full_name.as_str()).collect();
    assert_eq!(
        newest,
        ["Test Admin", "Pat Smith 300", "User 299"],
        "newest first"
    );
    let first = page(
        &app,
        &admin,
        pb::ListUsersRequest {
            limit: 40,
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(
        first.total,
        Some(301),
        "a page says how many users the list holds"
    );
}

#[tokio::test]
async fn a_later_page_does_not_shift_while_users_are_added() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    arrange_users(&app, 1, 100).await;
    let first = page(
        &app,
        &admin,
        pb::ListUsersRequest {
            limit: 30,
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let before = page(
        &app,
        &admin,
        pb::ListUsersRequest {
            limit: 30,
            after: first.next.clone(),
            ..Default::default()
        },
    )
    .await
    .unwrap();

    // Newer users arrive (they belong on the first page) while the admin reads on.
    arrange_users(&app, 101, 150).await;
    let after = page(
        &app,
        &admin,
        pb::ListUsersRequest {
            limit: 30,
            after: first.next,
            ..Default::default()
        },
    )
    .await
    .unwrap();

    assert_eq!(ids(&after.users), ids(&before.users));
    assert_eq!(after.next, before.next);
}

#[tokio::test]
async fn q_finds_a_part_of_the_name_email_or_id_in_any_case_and_role_filters() {
    let app = TestApp::start().await;
    let (admin, admin_user) = app.admin().await;
    arrange_users(&app, 1, 300).await;

    let (smiths, total) = whole(&app, &admin, "SMITH", "").await;
    assert_eq!(smiths.len(), 30);
    assert_eq!(total, None, "a search's count is not kept");
    assert!(smiths.iter().all(|u| u.full_name.starts_with("Pat Smith")));
    let paged = walk(&app, &admin, 7, "smith", "").await.concat();
    assert_eq!(ids(&paged), ids(&smiths), "the search pages like the list");

    let (coach_smiths, _) = whole(&app, &admin, "smith", "coach").await;
    assert_eq!(coach_smiths.len(), 30, "every tenth user is even: a coach");
    let (client_smiths, _) = whole(&app, &admin, "smith", "client").await;
    assert!(client_smiths.is_empty());
    let (coaches, coach_total) = whole(&app, &admin, "", "coach").await;
    assert_eq!((coaches.len(), coach_total), (150, Some(150)));
    assert!(coaches.iter().all(|u| u.role == "coach"));

    let (by_email, _) = whole(&app, &admin, "USER17", "").await;
    assert_eq!(by_email.len(), 11, "user17 and user170 to user179");
    let id_part = &admin_user.user_id[9..23].to_uppercase();
    let (by_id, _) = whole(&app, &admin, id_part, "").await;
    assert_eq!(ids(&by_id), [admin_user.user_id.as_str()]);
    let (wildcards, _) = whole(&app, &admin, "%", "").await;
    assert!(wildcards.is_empty(), "a % is a character, not a wildcard");
}

#[tokio::test]
async fn a_forged_keyset_an_unknown_role_or_a_bad_q_is_refused() {
    let app = TestApp::start().await;
    let (admin, _) = app.admin().await;
    for request in [
        pb::ListUsersRequest {
            limit: 10,
            after: "[\"not a time\",1]".into(),
            ..Default::default()
        },
        pb::ListUsersRequest {
            limit: 10,
            after: "{".into(),
            ..Default::default()
        },
        pb::ListUsersRequest {
            role: "owner".into(),
            ..Default::default()
        },
        pb::ListUsersRequest {
            q: "a\0b".into(),
            ..Default::default()
        },
    ] {
        let status = page(&app, &admin, request.clone()).await.unwrap_err();
        let detail = refused(Err::<(), _>(status), Code::InvalidArgument);
        assert!(!detail.is_empty(), "{request:?}");
    }
}

#[tokio::test]
async fn a_page_and_the_stats_cost_the_same_statements_however_many_users_there_are() {
    let app = TestApp::start_counted().await;
    let (admin, _) = app.admin().await;
    let measure = async |app: &TestApp, admin: &str| {
        // The fewest over three calls of each: the outbox relay's poll can only add to one.
        let (mut page_cost, mut search_cost, mut stats_cost) = (usize::MAX, usize::MAX, usize::MAX);
        for _ in 0..3 {
            let before = app.statements_run();
            page(
                app,
                admin,
                pb::ListUsersRequest {
                    limit: 50,
                    role: "coach".into(),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
            page_cost = page_cost.min(app.statements_run() - before);
            let before = app.statements_run();
            page(
                app,
                admin,
                pb::ListUsersRequest {
                    limit: 50,
                    q: "smith".into(),
                    ..Default::default()
                },
            )
            .await
            .unwrap();
            search_cost = search_cost.min(app.statements_run() - before);
            let before = app.statements_run();
            app.client()
                .count_users(authed(pb::CountUsersRequest {}, admin))
                .await
                .unwrap();
            stats_cost = stats_cost.min(app.statements_run() - before);
        }
        (page_cost, search_cost, stats_cost)
    };
    let few = measure(&app, &admin).await;
    arrange_users(&app, 1, 3_000).await;
    let many = measure(&app, &admin).await;

    assert_eq!(many, few, "no statement per user");
    // The caller's session check, then: the count and the page; the page; the counts and the weeks.
    assert_eq!(many, (3, 2, 3));
    let counts = app
        .client()
        .count_users(authed(pb::CountUsersRequest {}, &admin))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (counts.total_users, counts.total_coaches, counts.total_clients),
        (3_001, 1_500, 1_500)
    );
}
