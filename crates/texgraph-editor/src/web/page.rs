//! The browser around the page: its address, downloads and closing.

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

thread_local! {
    /// The fragment the page last showed or set itself, to tell a link opened in this
    /// tab from the page's own changes.
    static KNOWN: RefCell<String> = const { RefCell::new(String::new()) };
    /// The address of the last download, freed at the next one.
    static LAST_DOWNLOAD: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn window() -> web_sys::Window {
    web_sys::window().expect("the page has a window")
}

/// The address's fragment, without `#`.
pub fn fragment() -> String {
    let hash = window().location().hash().unwrap_or_default();
    hash.strip_prefix('#').unwrap_or(&hash).to_owned()
}

/// Whether the fragment changed since the page last looked (or set it): a link was
/// opened in this tab. The first call takes the fragment the page opened with.
pub fn fragment_changed() -> Option<String> {
    let now = fragment();
    KNOWN.with_borrow_mut(|known| (*known != now).then(|| known.clone_from(&now)))?;
    Some(now)
}

/// Puts `fragment` in the address without reloading or adding a history entry, and
/// returns the whole address.
pub fn set_fragment(fragment: &str) -> Result<String, String> {
    let window = window();
    window
        .history()
        .and_then(|h| {
            h.replace_state_with_url(
                &wasm_bindgen::JsValue::NULL,
                "",
                Some(&format!("#{fragment}")),
            )
        })
        .map_err(|_| "the browser refused to change the page's address".to_owned())?;
    KNOWN.with_borrow_mut(|known| fragment.clone_into(known));
    window
        .location()
        .href()
        .map_err(|_| "the browser did not give the page's address".to_owned())
}

/// Loads the page again (to open the link it now has).
pub fn reload() {
    let _ = window().location().reload();
}

/// Hands `bytes` to the browser as a download named `name`.
pub fn download(name: &str, bytes: &[u8]) -> Result<(), String> {
    let fail = |_| format!("the browser refused the download of {name}");
    let array = js_sys::Uint8Array::from(bytes);
    let parts = js_sys::Array::of1(&array);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/octet-stream");
    let blob =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let document = window().document().expect("the page has a document");
    let anchor: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into()
        .map_err(|_| format!("the browser refused the download of {name}"))?;
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    // Freed at the next download: the browser may still be reading this one.
    if let Some(old) = LAST_DOWNLOAD.with_borrow_mut(|last| last.replace(url)) {
        let _ = web_sys::Url::revoke_object_url(&old);
    }
    Ok(())
}

/// Calls `f` when the page is closed or reloaded.
pub fn on_page_hide(f: impl FnMut() + 'static) {
    let closure = Closure::<dyn FnMut()>::new(f);
    let _ = window().add_event_listener_with_callback("pagehide", closure.as_ref().unchecked_ref());
    // Lives as long as the page.
    closure.forget();
}

/// The page's element with the id `id`, when it has one.
fn element(id: &str) -> Option<web_sys::Element> {
    window().document()?.get_element_by_id(id)
}

/// Replaces the page's loading text with `message` (the editor could not start).
pub fn show_failure(message: &str) {
    if let Some(element) = element("texgraph_loading") {
        element.set_text_content(Some(message));
    }
}

/// Removes the page's loading text (the editor draws now).
pub fn loaded() {
    if let Some(element) = element("texgraph_loading") {
        element.remove();
    }
}

/// Puts `text` in the page's live region (`#texgraph_status`), which screen readers read
/// out: the canvas itself is a picture to them.
pub fn announce(text: &str) {
    if let Some(element) = element("texgraph_status") {
        element.set_text_content(Some(text));
    }
}
