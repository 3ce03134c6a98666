// The app around the recipes (docs/recipes/vue.ts and elements-vue.ts, copied
// beside this file by scripts/check-frameworks.mjs with the components their
// comments show): one client for the app, its token the reference backend's user.
import { createApp } from 'vue';
import App from './App.vue';
import { installBilling } from './vue';

const app = createApp(App);
installBilling(app, () => 'dev-token');
app.mount('#app');
