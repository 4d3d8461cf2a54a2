// The settings page's "notify this device" switch: subscribing this browser to Web Push
// when it is ticked (after the browser asks the person), forgetting it when unticked.
(function () {
  const box = document.querySelector("[data-push-key] input[name=turn_push]");
  const holder = document.querySelector("[data-push-key]");
  if (!box || !holder) return;
  const status = document.querySelector("[data-push-status]");
  const csrf = document.querySelector("input[name=csrfmiddlewaretoken]").value;
  const say = (text) => { if (status) status.textContent = text; };
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

  function keyBytes(base64) {
    const padded = (base64 + "===".slice((base64.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
  }

  function send(body) {
    return fetch(holder.dataset.pushUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      credentials: "same-origin",
      body: JSON.stringify(body),
    }).then((response) => {
      if (!response.ok) throw new Error("refused");
    });
  }

  async function subscribe() {
    if (!supported) throw new Error("unsupported");
    if ((await Notification.requestPermission()) !== "granted") throw new Error("denied");
    const registration = await navigator.serviceWorker.register(holder.dataset.workerUrl);
    await navigator.serviceWorker.ready;
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(holder.dataset.pushKey),
    });
    await send({ subscription: subscription.toJSON() });
  }

  async function forget() {
    if (!supported) return;
    const registration = await navigator.serviceWorker.getRegistration(holder.dataset.workerUrl);
    const subscription = registration && (await registration.pushManager.getSubscription());
    if (subscription) {
      await send({ forget: subscription.endpoint });
      await subscription.unsubscribe();
    }
  }

  if (!supported) say(holder.dataset.unsupported);
  box.addEventListener("change", () => {
    if (box.checked) {
      say(holder.dataset.asking);
      subscribe().then(
        () => say(holder.dataset.on),
        () => { box.checked = false; say(holder.dataset.failed); },
      );
    } else {
      forget().then(() => say(holder.dataset.off), () => say(holder.dataset.off));
    }
  });
})();
